import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import type { AppContext } from './context.js'
import { authorize, markUsed } from '../domain/access.js'
import { takeToken } from '../domain/rate-limits.js'
import { authenticateRequest } from './credential-hints.js'
import { FastExchange, fastPathAllowed } from './fast-path.js'
import { campaignListBody, LIST_PARAMS, LIST_SCOPE, parseListQuery, requireGoogle } from './routes/campaigns.js'

const LIST_PATH = '/v1/campaigns'

/**
 * The api host's request listener: a plain, successful `GET /v1/campaigns` (REST-01) is answered
 * without express, by the same pieces the express route uses (credentials, authenticate/authorize,
 * rate limits, campaign view, journal entry builder), because express's per-request work was most
 * of the read path's cost (bench/README.md). Everything else goes to `app`: other routes and
 * methods, unknown or repeated query parameters, a request body or conditional headers, any active
 * fault rule, and every request that would be refused. The refusal checks run before anything
 * changes, so express then answers exactly as if it had seen the request first.
 */
export function withFastReads(ctx: AppContext, app: RequestListener): RequestListener {
  return (req, res) => {
    if (!serveList(ctx, req, res)) app(req, res)
  }
}

function serveList(ctx: AppContext, req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? ''
  const mark = url.indexOf('?')
  if (req.method !== 'GET' || (mark === -1 ? url : url.slice(0, mark)) !== LIST_PATH) return false
  if (req.headers['content-length'] !== undefined || !fastPathAllowed(ctx, req)) return false
  const { deps } = ctx
  // express 5's default ("simple") query parser is node:querystring.
  const query = parseQuery(mark === -1 ? '' : url.slice(mark + 1))
  if (!Object.entries(query).every(([name, value]) => LIST_PARAMS.has(name) && typeof value === 'string')) return false
  const exchange = new FastExchange(ctx, { host: 'api', path: LIST_PATH, query, req, res })
  let actor
  let parsed
  try {
    // House order, as the express route: authenticate → authorize → validate.
    actor = authorize(deps, authenticateRequest(deps, req, 'resource', ctx.keyHeaders), LIST_SCOPE)
    parsed = parseListQuery({ ...query })
    requireGoogle(parsed)
    // Last check: it throws before taking anything, and takes the tokens when it passes.
    takeToken(deps, actor)
  } catch {
    return false
  }
  markUsed(deps, actor)
  exchange.replyAfterCommit({ body: campaignListBody(deps, actor.workspace.id, parsed) })
  return true
}
