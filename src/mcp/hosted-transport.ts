import type { Request, Response } from 'express'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Ids } from '../domain/ports.js'
import type { HostedCaller } from './hosted-auth.js'
import { REQUEST_ID_HEADER } from '../support/request-id.js'
import { sendChunks } from '../http/journal.js'
import type { ChunkedBody } from '../http/write-chunks.js'
import type { ToolListPage } from './server.js'

/** Session bounds (sandbox decision): per credential, and for the whole table. */
export const SESSION_LIMITS = { perCaller: 32, total: 10_000 } as const

/**
 * Hosted MCP sessions (`Mcp-Session-Id`), owned by the caller that opened them: a session can be
 * continued only with the same key or OAuth grant, so no header switches identity or workspace
 * mid-session (MCP-03). Sessions hold no server state; each request gets a fresh server. A caller
 * holds at most `perCaller` sessions: its next initialize ends its own oldest one, never anyone
 * else's. A full table refuses new sessions (`open` returns null) rather than evict another caller.
 */
export class McpSessions {
  readonly #owners = new Map<string, string>()
  readonly #byCaller = new Map<string, Set<string>>()
  readonly #ids: Ids

  constructor(ids: Ids) {
    this.#ids = ids
  }

  open(principal: string): string | null {
    const mine = this.#byCaller.get(principal) ?? new Set<string>()
    if (mine.size >= SESSION_LIMITS.perCaller) this.close(mine.values().next().value as string)
    else if (this.#owners.size >= SESSION_LIMITS.total) return null
    const id = `mcps_${this.#ids.secret(32)}`
    this.#owners.set(id, principal)
    this.#byCaller.set(principal, mine.add(id))
    return id
  }

  owns(id: string, principal: string): boolean {
    return this.#owners.get(id) === principal
  }

  /** How many sessions a caller holds. */
  count(principal: string): number {
    return this.#byCaller.get(principal)?.size ?? 0
  }

  close(id: string): void {
    const owner = this.#owners.get(id)
    if (owner === undefined) return
    this.#owners.delete(id)
    const mine = this.#byCaller.get(owner)
    mine?.delete(id)
    if (mine?.size === 0) this.#byCaller.delete(owner)
  }
}

export interface TransportOptions {
  sessions: McpSessions
  caller: HostedCaller
  /** A server for this request, bound to the caller. */
  server: () => McpServer
  /** The `tools/list` page for a cursor, or null to let a server answer (`toolListPage`). */
  toolList?: (cursor: unknown) => ToolListPage | null
}

/**
 * Why a JSON-RPC batch is refused: MCP 2025-06-18 removed batching; the sandbox refuses it on every
 * revision so that each call is authorised, gated, charged and journaled as its own exchange.
 */
export const BATCH_REFUSED = 'Invalid Request: JSON-RPC batches are not supported on this server (MCP 2025-06-18 removed batching); nothing in the batch was run. Send each request in its own POST.'

/**
 * Streamable HTTP `POST /mcp`: JSON-RPC in, JSON or SSE out according to `Accept` (SSE when the
 * client lists `text/event-stream`, JSON when it lists only `application/json`), 202 for
 * notifications, `Mcp-Session-Id` from initialize on. A request without `Mcp-Session-Id` is served
 * statelessly (the real service's bridge never initialises; issue 35); a session id it sends must
 * be its own. A batch is refused whole. The SDK's web-standard transport does the protocol; it runs
 * per request in stateless mode while sessions are ours.
 */
export async function handleMcpPost(req: Request, res: Response, options: TransportOptions): Promise<void> {
  const accept = String(req.headers.accept ?? '')
  const sse = accept.includes('text/event-stream')
  if (!sse && !accept.includes('application/json') && !accept.includes('*/*')) {
    return rpcError(res, 406, -32000, 'Not Acceptable: accept application/json or text/event-stream.')
  }
  if (!req.is('application/json')) return rpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json.')
  const body: unknown = req.body
  // Refused whole, before any call in it runs (issue 33 item 5; docs/decisions.md).
  if (Array.isArray(body)) return rpcError(res, 400, -32600, BATCH_REFUSED)
  const initialize = isInitializeRequest(body)
  const sessionId = header(req, 'mcp-session-id')
  // No session id: stateless Streamable HTTP (issue 35), answered like any session's request. A
  // session id must be one this caller opened.
  if (!initialize && sessionId && !options.sessions.owns(sessionId, options.caller.principal)) {
    return rpcError(res, 404, -32001, 'Session not found')
  }
  // A `tools/list` needs no server of its own: the listing is the same for every caller. Sent as
  // the transport would send it (SSE when the client lists it, else JSON), from kept text.
  if (!initialize && isToolsList(body) && options.toolList && supportedVersion(req)) {
    const page = options.toolList((body.params as { cursor?: unknown } | undefined)?.cursor)
    if (page !== null) {
      const listing = listingAnswer({ page, id: body.id, sse, sessionId })
      res.set(listing.headers)
      return sendChunks(res, listing.body)
    }
  }
  const opened = initialize ? options.sessions.open(options.caller.principal) : null
  if (initialize && opened === null) return rpcError(res, 429, -32000, 'Too many MCP sessions on this sandbox; end some (DELETE /mcp) and retry.')
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !sse, keepAliveMs: 0 })
  const server = options.server()
  try {
    await server.connect(transport)
    const response = await transport.handleRequest(toWebRequest(req), { parsedBody: body, authInfo: authInfoOf(options.caller) })
    if (opened && response.ok) res.setHeader('Mcp-Session-Id', opened)
    else if (opened) options.sessions.close(opened)
    else if (sessionId) res.setHeader('Mcp-Session-Id', sessionId)
    await send(response, res)
  } finally {
    await transport.close()
    await server.close()
  }
}

/**
 * The answer to a `tools/list` from its kept page, as the SDK's transport would send it:
 * SSE when the client lists `text/event-stream`, else JSON, the session id echoed. Shared by the
 * express path and the fast one (`fast-tools-list.ts`).
 */
export function listingAnswer(options: { page: ToolListPage; id: string | number; sse: boolean; sessionId: string | null }): { headers: Record<string, string>; body: ChunkedBody } {
  const { sse } = options
  const headers: Record<string, string> = {}
  if (options.sessionId) headers['Mcp-Session-Id'] = options.sessionId
  if (sse) headers['Cache-Control'] = 'no-cache'
  const tail = Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(options.id)}}${sse ? '\n\n' : ''}`)
  const type = sse ? 'text/event-stream' : 'application/json; charset=utf-8'
  return { headers, body: { status: 200, type, chunks: [keptListing(options.page, sse), tail] } }
}

/**
 * The bytes that open a page's message, kept on the page (the same page object each time for the
 * server's own cursors): a 200-tool listing is 160 KB, and encoding it per request cost more than
 * the rest of the request.
 */
function keptListing(page: ToolListPage, sse: boolean): Buffer {
  if (!page.bytes) {
    const json = Buffer.from(`{"result":${page.text}`)
    page.bytes = { json, sse: Buffer.concat([Buffer.from('event: message\ndata: '), json]) }
  }
  return sse ? page.bytes.sse : page.bytes.json
}

/** A protocol version the SDK would refuse is left to it, so the refusal reads the same either way. */
export function supportedVersion(req: Pick<Request, 'headers'>): boolean {
  const version = header(req, 'mcp-protocol-version')
  return !version || SUPPORTED_PROTOCOL_VERSIONS.includes(version)
}

/** A JSON-RPC `tools/list` request (not a notification). */
export function isToolsList(body: unknown): body is { id: string | number; method: 'tools/list'; params?: unknown } {
  const b = body as { jsonrpc?: unknown; method?: unknown; id?: unknown } | null
  return b !== null && typeof b === 'object' && b.jsonrpc === '2.0' && b.method === 'tools/list' && (typeof b.id === 'string' || typeof b.id === 'number')
}

/** `DELETE /mcp`: ends the caller's session. */
export function handleMcpDelete(req: Request, res: Response, sessions: McpSessions, caller: HostedCaller): void {
  const sessionId = header(req, 'mcp-session-id')
  if (!sessionId) return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required.')
  if (!sessions.owns(sessionId, caller.principal)) return rpcError(res, 404, -32001, 'Session not found')
  sessions.close(sessionId)
  res.status(200).end()
}

function rpcError(res: Response, status: number, code: number, message: string): void {
  // JSON-RPC allows `data` on an error object: the request id goes there, as the header says it.
  const request_id = res.getHeader(REQUEST_ID_HEADER)
  res.status(status).json({ jsonrpc: '2.0', error: { code, message, ...(typeof request_id === 'string' ? { data: { request_id } } : {}) }, id: null })
}

function authInfoOf(caller: HostedCaller) {
  return { token: caller.principal, clientId: caller.principal, scopes: caller.actor.key.scopes, extra: { workspace_id: caller.actor.workspace.id } }
}

// The transport requires both media types; we have already chosen the reply format ourselves.
function toWebRequest(req: Request): globalThis.Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  headers.set('accept', 'application/json, text/event-stream')
  return new Request(`http://${req.get('host') ?? 'localhost'}${req.originalUrl}`, { method: req.method, headers })
}

// Replies are sent whole (one JSON body, or the SSE events of this request), so the journal keeps them.
async function send(response: globalThis.Response, res: Response): Promise<void> {
  res.status(response.status)
  response.headers.forEach((value, name) => res.setHeader(name, value))
  const text = response.body ? await response.text() : ''
  if (text) res.send(text)
  else res.end()
}

/** A request header's first value, trimmed; absent or blank → null. */
export function header(req: Pick<Request, 'headers'>, name: string): string | null {
  const raw = req.headers[name]
  return (Array.isArray(raw) ? raw[0] : raw)?.trim() || null
}
