import type { IncomingMessage } from 'node:http'
import type { AppContext } from '../http/context.js'
import type { LateFastPath } from '../http/fast-path.js'
import { FastExchange } from '../http/fast-path.js'
import { plainJsonLength, readJsonObject } from '../http/fast-body.js'
import { readCredential } from '../http/credentials.js'
import type { McpSessions } from './hosted-transport.js'
import { header, isToolsList, listingAnswer, supportedVersion } from './hosted-transport.js'
import type { HostedCaller } from './hosted-auth.js'
import { keyCaller } from './hosted-auth.js'
import { hostAllowed } from './request-guard.js'
import { MCP_PATH } from './hosted-paths.js'
import type { ToolListPage } from './server.js'

export interface FastToolsListOptions {
  ctx: AppContext
  sessions: McpSessions
  /** The kept page for a cursor, or null for one a server would refuse (`toolListPage`). */
  toolList: (cursor: unknown) => ToolListPage | null
}

/**
 * Hosted MCP's `tools/list` answered without express (issue 35: ≤ 5 ms p99 with a 200-tool
 * catalog; express's per-request work was most of what was left). Taken only when the express path
 * would answer it the same way: `POST /mcp` exactly, no scripted fault or unusual header, a `Host`
 * the guard admits and no `Origin` (browsers get CORS there), a plain JSON body within the limit,
 * an `Accept` the transport serves, a known protocol version, a valid workspace-pinned key in a key
 * header and no `Authorization`, and a session id (if any) the caller owns. Anything else — a
 * refusal, OAuth, another method — is express's, with the body pushed back once read.
 */
export function fastToolsList(options: FastToolsListOptions): LateFastPath {
  const { ctx } = options
  return (req, res, fallBack) => {
    const length = req.url === MCP_PATH ? plainJsonLength(ctx, req) : null
    if (length === null || !plainRequest(ctx, req)) return false
    const caller = keyCallerOf(ctx, req)
    const sessionId = header(req, 'mcp-session-id')
    if (!caller || (sessionId && !options.sessions.owns(sessionId, caller.principal))) return false
    readJsonObject(req, length, {
      take: (input, text) => {
        if (!isToolsList(input)) return false
        const page = options.toolList((input.params as { cursor?: unknown } | undefined)?.cursor)
        if (page === null) return false
        const exchange = new FastExchange(ctx, { host: 'base', path: MCP_PATH, query: {}, req, res })
        exchange.requestBody = text
        const sse = acceptOf(req).includes('text/event-stream')
        const answer = listingAnswer({ page, id: input.id, sse, sessionId })
        exchange.sendChunks(answer.headers, answer.body)
      },
      fallBack,
    })
    return true
  }
}

// What the express path checks before the transport, so that only a request it would serve is taken here.
function plainRequest(ctx: AppContext, req: IncomingMessage): boolean {
  const accept = acceptOf(req)
  return req.headers.origin === undefined && req.headers.authorization === undefined &&
    hostAllowed(ctx.urls.base, req.headers.host ?? '') && supportedVersion(req) &&
    (accept.includes('text/event-stream') || accept.includes('application/json') || accept.includes('*/*'))
}

// A credential the express path would refuse (missing, two of them, unknown, unpinned) is left to it.
function keyCallerOf(ctx: AppContext, req: IncomingMessage): HostedCaller | null {
  try {
    const value = readCredential(req, 'mcp', ctx.keyHeaders)
    return value ? keyCaller(ctx.deps, value) : null
  } catch {
    return null
  }
}

function acceptOf(req: IncomingMessage): string {
  return String(req.headers.accept ?? '')
}
