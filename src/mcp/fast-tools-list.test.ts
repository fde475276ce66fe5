import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { KEYS } from '../test-support/http.js'
import type { RawAnswer, RawRequest, Twin } from '../test-support/twins.js'
import { FELL_BACK, closeTwins, journalOf, sendRaw, standIn, twin } from '../test-support/twins.js'
import { withLateFastPaths } from '../http/fast-path.js'
import { syntheticCatalog } from '../test-support/synthetic-catalog.js'

// Hosted MCP's `tools/list` in front of express (issue 35's ≤ 5 ms p99): two identical sandboxes,
// one behind the fast path and one express alone; every request must be answered the same way, and
// whatever the fast path does not take must reach express with its body intact.
let fast: Twin
let plain: Twin
let probe: Listening
let session = ''
const options = { catalog: { tools: syntheticCatalog() }, mcpPageSize: 120, keyHeaders: ['x-bridge-key'] }
beforeAll(async () => {
  fast = await twin((sb) => sb.baseListener, options)
  plain = await twin((sb) => sb.baseApp, options)
  probe = await listen(withLateFastPaths(fast.sb.ctx, standIn), '127.0.0.1', 0)
  // The first MCP request loads hosted MCP, which adds the fast path; both twins open the same session (sequential ids).
  const init = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'twin', version: '1' } })
  const [a, b] = [await send(fast.server.url, init), await send(plain.server.url, init)]
  expect(a.headers['mcp-session-id']).toBe(b.headers['mcp-session-id'])
  session = String(a.headers['mcp-session-id'])
})
afterAll(async () => {
  await probe.close()
  await closeTwins([fast, plain])
})

type Sent = Omit<RawRequest, 'path'> & { path?: string }
const JSON_AND_SSE = 'application/json, text/event-stream'
// `id: null` sends a notification (no id).
const rpc = (method: string, params?: unknown, id: string | number | null = 1): Sent => ({
  headers: { 'x-service-key': KEYS.agent, accept: JSON_AND_SSE },
  body: JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), method, ...(params === undefined ? {} : { params }) }),
})
const list = (headers: Record<string, string> = {}, params?: unknown, id: string | number | null = 7): Sent => {
  const sent = rpc('tools/list', params, id)
  return { ...sent, headers: { ...sent.headers, ...headers } }
}
const send = (url: string, sent: Sent) => sendRaw(url, { ...sent, path: sent.path ?? '/mcp' })
const withSession = () => ({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' })

// [what, request, answered by the fast path itself?]
const CASES: Array<[string, () => Sent, boolean]> = [
  ['a stateless listing over SSE', () => list(), true],
  ['a stateless listing as JSON', () => list({ accept: 'application/json' }), true],
  ['a listing in the caller’s session', () => list(withSession()), true],
  ['a listing with a string id', () => list({}, {}, 'abc'), true],
  ['a key in a configured key header', () => list({ 'x-service-key': '', 'x-bridge-key': KEYS.agent }), true],
  ['the same key in two key headers', () => list({ 'x-bridge-key': KEYS.agent }), true],
  ['the second page, by its cursor', () => list({}, { cursor: Buffer.from('{"offset":120}').toString('base64url') }), true],
  ['a cursor the server refuses', () => list({}, { cursor: 'not-a-cursor' }), false],
  ['an unknown protocol version', () => list({ 'mcp-protocol-version': '1999-01-01' }), false],
  ['a session id the caller does not own', () => list({ 'mcp-session-id': 'mcps_not-mine' }), false],
  ['no credential', () => list({ 'x-service-key': '' }), false],
  ['a key that is not valid', () => list({ 'x-service-key': 'svc_test_nope0000000000000000000000000000' }), false],
  ['an unpinned key', () => list({ 'x-service-key': KEYS.signup }), false],
  ['two different keys', () => list({ 'x-bridge-key': KEYS.owner }), false],
  ['a key in X-API-Key, which hosted MCP does not read', () => list({ 'x-service-key': '', 'x-api-key': KEYS.agent }), false],
  ['a key and an Authorization line', () => list({ authorization: 'Bearer whatever' }), false],
  ['an Origin (a browser)', () => list({ origin: 'http://localhost:5173' }), false],
  ['a Host the guard refuses', () => list({ host: 'evil.example' }), false],
  ['an Accept the transport refuses', () => list({ accept: 'text/html' }), false],
  ['another content type', () => list({ 'content-type': 'text/plain' }), false],
  ['a query string', () => ({ ...list(), path: '/mcp?x=1' }), false],
  ['a notification named tools/list', () => list({}, undefined, null), false],
  ['a batch holding a listing', () => ({ ...list(), body: `[${list().body}]` }), false],
  ['a tool call', () => rpc('tools/call', { name: 'list_campaigns', arguments: {} }), false],
  ['a ping', () => rpc('ping'), false],
]

const COMPARED = ['content-type', 'content-length', 'cache-control', 'mcp-session-id', 'request-id', 'www-authenticate', 'access-control-allow-origin', 'vary']

describe('hosted tools/list in front of express', () => {
  it.each(CASES)('answers %s exactly as express does', async (_what, sent) => {
    const viaFast = await send(fast.server.url, sent())
    const viaExpress = await send(plain.server.url, sent())
    expect(viaFast.status).toBe(viaExpress.status)
    expect(viaFast.text).toBe(viaExpress.text)
    // The twins listen on different ports, which the OAuth challenge names.
    const header = (answer: RawAnswer, name: string) => String(answer.headers[name] ?? '').replace(/127\.0\.0\.1:\d+/g, 'HOST')
    for (const name of COMPARED) expect([name, header(viaFast, name)]).toEqual([name, header(viaExpress, name)])
  })

  it('leaves the same journal behind as express, the listings cut at the cap with their full length', () => {
    const portless = (twin: Twin) => JSON.parse(JSON.stringify(journalOf(twin.sb)).replace(/127\.0\.0\.1:\d+/g, 'HOST')) as unknown
    expect(portless(fast)).toEqual(portless(plain))
    const listing = fast.sb.ctx.journal.query({ limit: 1000 }).entries.find((e) => e.status === 200 && e.response.truncated)
    expect(listing?.response.truncated?.bytes).toBeGreaterThan(64 * 1024)
    expect(String(listing?.response.body)).toMatch(/^event: message\ndata: \{"result":\{"tools":\[/)
  })

  it.each(CASES.filter(([, , own]) => !own))('hands %s to express with its body intact', async (_what, sent) => {
    const answer = await send(probe.url, sent())
    expect(answer.status).toBe(FELL_BACK)
    expect(answer.text).toBe(sent().body)
  })

  it.each(CASES.filter(([, , own]) => own))('answers %s itself', async (_what, sent) => {
    const answer = await send(probe.url, sent())
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('"tools":[')
  })

  it('stops answering once the key is revoked: the refusal is express’s 401', async () => {
    const agent = fast.sb.ctx.deps.store.keys.find((k) => k.prefix === KEYS.agent.slice(0, 12))
    expect(agent).toBeDefined()
    const before = agent!.revoked_at
    fast.sb.ctx.deps.store.keys.update(agent!.id, { revoked_at: '2030-01-01T00:00:00.000Z' })
    try {
      expect((await send(probe.url, list())).status).toBe(FELL_BACK)
      expect((await send(fast.server.url, list())).status).toBe(401)
    } finally {
      fast.sb.ctx.deps.store.keys.update(agent!.id, { revoked_at: before })
    }
  })
})
