import fc from 'fast-check'
import type { Operation } from './operations.js'
import { fillPath } from './operations.js'
import type { RawRequest } from './target.js'
import { ADMIN_TOKEN } from './target.js'

/** Values the generators draw from: real ids and keys of the running world, so requests reach past the router. */
export interface Pools {
  keys: string[]
  ids: string[]
  scripts: string[]
  mcpTools: string[]
}

const BAD_KEYS = ['svc_test_', 'svc_test_unknown0000000000000000000000000', 'svc_live_ownerAcme00000000000000000000000', 'Bearer', 'null', '']
const TRAVERSALS = ['..', '../../_sandbox/state', '..%2F..%2F_sandbox%2Fstate', '%2e%2e%2f%2e%2e', '%00', '%C0%AE%C0%AE', '%E2%80%AE', '%', '%zz', '.', '~root', '%F0%9F%92%A5']
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND']
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/merge-patch+json']

/** A string as UTF-8 bytes on the wire: Node takes a header value byte by byte as latin-1. */
const wire = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

function credentials(pools: Pools): fc.Arbitrary<Record<string, string | string[]>> {
  const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pools.keys) }, fc.constantFrom(...BAD_KEYS), fc.string({ maxLength: 40 }).map(wire))
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 4, arbitrary: key.map((k) => ({ authorization: `Bearer ${k}` })) },
    { weight: 2, arbitrary: key.map((k) => ({ 'x-service-key': k })) },
    key.map((k) => ({ 'x-api-key': k })),
    fc.tuple(key, key).map(([a, b]) => ({ authorization: `Bearer ${a}`, 'x-service-key': b })),
    fc.tuple(key, key).map(([a, b]) => ({ authorization: [`Bearer ${a}`, `Bearer ${b}`] })),
    fc.tuple(key, key).map(([a, b]) => ({ 'x-service-key': [a, b] })),
    key.map((k) => ({ authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}` })),
    key.map((k) => ({ authorization: `bearer   ${k}` })),
    fc.constantFrom(2_000, 9_000, 20_000).map((n) => ({ authorization: `Bearer ${'k'.repeat(n)}` })),
    fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => ({ authorization: wire(`Bearer ${s}`), 'x-service-key': wire(s) })),
  )
}

function extraHeaders(): fc.Arbitrary<Record<string, string | string[]>> {
  const one = fc.oneof(
    fc.constantFrom(['accept', 'application/json, text/event-stream'], ['accept', 'text/html'], ['accept', '*/*']),
    fc.constantFrom(['expect', '100-continue'], ['expect', 'teapot']),
    fc.constantFrom(['if-none-match', '*'], ['if-none-match', 'W/"0"']),
    fc.string({ maxLength: 40 }).map((v) => ['mcp-session-id', wire(v)]),
    fc.constantFrom(['mcp-protocol-version', '2025-06-18'], ['mcp-protocol-version', '1999-01-01']),
    fc.constantFrom(['content-encoding', 'gzip'], ['content-encoding', 'br'], ['transfer-encoding', 'chunked']),
    fc.constantFrom(['x-sandbox-admin', ADMIN_TOKEN], ['x-sandbox-admin', 'wrong'], ['x-sandbox-admin', `${ADMIN_TOKEN.slice(0, -1)}é`]),
    fc.string({ unit: 'binary', maxLength: 200 }).map((v) => ['x-fuzz', wire(v)]),
  ) as fc.Arbitrary<[string, string]>
  const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, fc.constantFrom(...CONTENT_TYPES))
  return fc.tuple(contentType, fc.array(one, { maxLength: 2 })).map(([type, pairs]) => ({ 'content-type': type, ...Object.fromEntries(pairs) }))
}

/** A JSON-RPC message for hosted MCP: initialize, list, or a tool call with real ids. */
function mcpCall(pools: Pools, id: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.record({
    jsonrpc: fc.oneof({ weight: 5, arbitrary: fc.constant('2.0') }, fc.constant('1.0')),
    id: fc.oneof({ weight: 4, arbitrary: fc.nat() }, fc.string({ maxLength: 5 }), fc.constant(null)),
    method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'resources/list', 'nope'),
    params: fc.record({ name: fc.constantFrom(...pools.mcpTools), arguments: fc.dictionary(fc.constantFrom('campaign_id', 'days', 'daily_budget', 'status', 'account_id'), fc.oneof(id, fc.integer(), fc.string({ maxLength: 8 }))),
      protocolVersion: fc.constant('2025-06-18'), capabilities: fc.constant({}), clientInfo: fc.constant({ name: 'fuzz', version: '1' }) }, { requiredKeys: ['name', 'arguments'] }),
  }, { requiredKeys: ['jsonrpc', 'method', 'params'] })
}

/** A body that a route might take: the dispatcher's, an MCP JSON-RPC call, or a small object, with real ids. */
function plausibleBody(pools: Pools): fc.Arbitrary<unknown> {
  const id = fc.constantFrom(...pools.ids)
  const args = fc.array(fc.oneof(fc.constantFrom('--campaign-id', '--daily-budget', '--days', '--status', '--account-id', '--budget', '--name', '--start-date'), id,
    fc.constantFrom('5000', '-1', '1e309', '2026-02-30', 'ENABLED', '0'), fc.string({ maxLength: 12 })), { maxLength: 6 })
  const run = fc.record({ script_name: fc.constantFrom(...pools.scripts), args, platform: fc.constantFrom('google', 'meta', 5, null), dry_run: fc.boolean() }, { requiredKeys: ['script_name'] })
  const mcp = mcpCall(pools, id)
  const small = fc.dictionary(fc.constantFrom('name', 'scopes', 'expires_in_days', 'daily_budget', 'platform', 'account_id', 'reason', 'note', 'email', 'workspace_id', 'client_name', 'redirect_uris'),
    fc.oneof(id, fc.integer(), fc.string({ maxLength: 10 }), fc.array(fc.string({ maxLength: 15 }), { maxLength: 3 }), fc.constant(null), fc.double()))
  return fc.oneof(run, mcp, small)
}

function body(pools: Pools): fc.Arbitrary<Buffer | undefined> {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null')
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: plausibleBody(pools).map(json) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json) },
    fc.string({ unit: 'grapheme', maxLength: 200 }).map((s) => Buffer.from(s)),
    fc.constantFrom('{', '{"script_name":', '[1,2', '{"a":1}}', 'null', '\uFEFF{}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}').map((s) => Buffer.from(s)),
    fc.integer({ min: 100, max: 5000 }).map((depth) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
    fc.constantFrom(64 * 1024, 900 * 1024, 1100 * 1024).map((n) => json({ script_name: 'list_campaigns', pad: 'é'.repeat(n / 2) })),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  )
}

function pathValue(pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...pools.ids) },
    { weight: 2, arbitrary: fc.constantFrom(...TRAVERSALS) },
    fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
    fc.constantFrom(500, 5_000, 12_000).map((n) => 'a'.repeat(n)),
  )
}

/** Stands for the fuzz run's current MCP session id; `runFuzz` puts the real one in before sending. */
export const MCP_SESSION = '<current-mcp-session>'

/**
 * A request hosted MCP would accept the framing of: a pinned or other world key in `X-Service-Key`,
 * the run's session (or none, or a made-up one) and a JSON-RPC body, so tool calls reach the tools.
 */
function mcpRequest(pools: Pools): fc.Arbitrary<RawRequest> {
  return fc.record({
    key: fc.constantFrom(...pools.keys),
    session: fc.oneof({ weight: 4, arbitrary: fc.constant(MCP_SESSION) }, fc.constant(''), fc.string({ minLength: 1, maxLength: 20 })),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json'),
    body: mcpCall(pools, fc.constantFrom(...pools.ids)),
  }).map(({ key, session, accept, body }) => ({
    host: 'base' as const, method: 'POST', path: '/mcp', operation: 'mcpPost (session)',
    headers: { 'content-type': 'application/json', accept, 'x-service-key': key, ...(session ? { 'mcp-session-id': session } : {}) },
    body: Buffer.from(JSON.stringify(body)),
  }))
}

/** One request aimed at `op`, or (one in ten) a well-framed hosted MCP call. */
export function requestFor(ops: Operation[], pools: Pools): fc.Arbitrary<RawRequest> {
  return fc.oneof({ weight: 9, arbitrary: anyRequest(ops, pools) }, { weight: 1, arbitrary: mcpRequest(pools) })
}

/** One request aimed at `op`, sometimes with another method, a suffix or a query string. */
function anyRequest(ops: Operation[], pools: Pools): fc.Arbitrary<RawRequest> {
  return fc.record({
    op: fc.constantFrom(...ops),
    method: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, fc.constantFrom(...METHODS)),
    values: fc.dictionary(fc.constantFrom('id', 'keyId', 'name', 'token'), pathValue(pools)),
    suffix: fc.oneof({ weight: 6, arbitrary: fc.constant('') }, fc.constantFrom('/', '//', '/..', '/%2e%2e/_sandbox/state', '?limit=500', '?status=ENABLED&status=PAUSED', '?platform=meta&days=0'),
      fc.dictionary(fc.constantFrom('limit', 'page', 'days', 'status', 'q', 'platform', 'start_date', 'end_date', 'workspace_id', 'since'), fc.string({ maxLength: 12 }), { minKeys: 1 })
        .map((q) => `?${new URLSearchParams(q)}`)),
    credentials: credentials(pools),
    extra: extraHeaders(),
    body: body(pools),
    admin: fc.boolean(),
  }).map(({ op, method, values, suffix, credentials, extra, body, admin }) => ({
    host: op.host,
    method: method ?? op.method,
    path: fillPath(op, values) + suffix,
    // Half the control-plane requests carry the admin token, so its routes are reached at all.
    // Half the /mcp requests accept what the transport requires, so they reach the MCP server.
    headers: { ...(op.template === '/mcp' && admin ? { accept: 'application/json, text/event-stream' } : {}), ...extra, ...credentials,
      ...(op.control && admin ? { 'x-sandbox-admin': ADMIN_TOKEN } : {}) },
    body,
    operation: op.operationId,
  }))
}
