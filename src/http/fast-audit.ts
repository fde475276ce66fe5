import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { AppContext } from './context.js'
import { authorize, markUsed } from '../domain/access.js'
import { authenticateRequest } from './credential-hints.js'
import { FastExchange, fastPathAllowed } from './fast-path.js'
import { AUDIT_READ_SCOPE, auditEntryBody } from './routes/audit.js'

// Exactly as clients send it: lower case, no trailing slash, an id express would not decode (no `%`),
// no query string. Any other spelling express still matches is left to express.
const ENTRY_PATH = /^\/api\/v1\/audit\/([A-Za-z0-9_-]{1,128})$/

/**
 * The base host's listener for a plain, successful `GET /api/v1/audit/{id}` (GATE-01), answered
 * without express by the same pieces the route uses (credentials, authenticate/authorize, the
 * entry body `auditEntryBody`, `last_used_at`, the group-commit wait, one journal entry builder),
 * because express's per-request work was most of an audit read's cost in the agent session
 * (bench/README.md). Every request that would be refused (401, 403, 404 for a missing entry or
 * one of another workspace or key) is left to `app` before anything changes that express would
 * not change too, so express then answers exactly as if it had seen the request first.
 */
export function withFastAudit(ctx: AppContext, app: RequestListener): RequestListener {
  return (req, res) => {
    if (!serveEntry(ctx, req, res)) app(req, res)
  }
}

function serveEntry(ctx: AppContext, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET') return false
  const match = ENTRY_PATH.exec(req.url ?? '')
  if (!match || req.headers['content-length'] !== undefined || !fastPathAllowed(ctx, req)) return false
  const exchange = new FastExchange(ctx, { host: 'base', path: match[0], query: {}, req, res })
  const { deps } = ctx
  let actor
  let body
  try {
    // House order, as the express route: authenticate → authorize → read. Reading may expire a
    // pending entry (`refreshExpiry`); express's own read would do the same, so a refusal after it
    // still leaves express the state it would have made itself.
    actor = authorize(deps, authenticateRequest(deps, req, 'resource', ctx.keyHeaders), AUDIT_READ_SCOPE)
    body = auditEntryBody(deps, actor, match[1])
  } catch {
    return false
  }
  markUsed(deps, actor)
  exchange.replyAfterCommit({ body })
  return true
}
