import { request } from 'node:http'
import type { RequestListener } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { INITIALIZE, WORLD_KEYS, rpc } from './mcp-test-support.js'
import { SESSION_LIMITS } from './hosted-transport.js'

let sb: RunningSandbox
beforeAll(async () => {
  sb = await createSandbox({ world: 'multi-workspace' })
})
afterAll(async () => sb.close())

const key = { 'x-service-key': WORLD_KEYS.alexClientA }
const port = () => new URL(sb.baseUrl).port

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw request, so that `Host` can be anything (fetch would set it from the URL). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

describe('Origin on /mcp (MCP transport spec: DNS-rebinding protection)', () => {
  it.each([
    ['no Origin (a non-browser client)', undefined],
    ['the sandbox\'s own origin', 'own'],
    ['a loopback origin on another port (a local browser client)', 'http://localhost:6274'],
    ['an IPv6 loopback origin', 'http://[::1]:6274'],
  ])('accepts %s and echoes it in CORS, never *', async (_label, origin) => {
    const sent = origin === 'own' ? new URL(sb.baseUrl).origin : origin
    const res = await rpc(sb.baseUrl, INITIALIZE, { ...key, ...(sent ? { origin: sent } : {}) })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(sent ?? null)
  })

  it.each([
    ['another site', 'https://evil.example'],
    ['a host that only starts with 127.', 'http://127.0.0.1.evil.example'],
    ['null (a sandboxed frame or file)', 'null'],
    ['another scheme on loopback', 'chrome-extension://abc'],
  ])('refuses %s with 403 ORIGIN_NOT_ALLOWED JSON, even with a valid key', async (_label, origin) => {
    const res = await rpc(sb.baseUrl, INITIALIZE, { ...key, origin })
    expect(res.status).toBe(403)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(await res.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED', error: expect.any(String) })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('mcp-session-id')).toBeNull()
  })

  it('refuses a CORS preflight from another site (403), answers one from loopback (204)', async () => {
    const preflight = (origin: string) => fetch(`${sb.baseUrl}/mcp`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } })
    expect((await preflight('https://evil.example')).status).toBe(403)
    const ok = await preflight('http://127.0.0.1:6274')
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:6274')
  })
})

describe('Host on hosted MCP and its OAuth server', () => {
  it.each(['/mcp', '/authorize', '/register', '/token', '/oauth/sign-in', '/.well-known/oauth-authorization-server'])(
    'refuses %s under a Host the sandbox is not bound to (403 HOST_NOT_ALLOWED)',
    async (path) => {
      const res = await raw(`${sb.baseUrl}${path}`, { headers: { ...mcpHeaders, ...key, host: `evil.example:${port()}` }, body: JSON.stringify(INITIALIZE) })
      expect(res.status).toBe(403)
      expect(JSON.parse(res.body)).toMatchObject({ code: 'HOST_NOT_ALLOWED' })
    },
  )

  it.each(['localhost', '127.0.0.1'])('accepts the loopback name %s', async (name) => {
    const res = await raw(`${sb.baseUrl}/mcp`, { headers: { ...mcpHeaders, ...key, host: `${name}:${port()}` }, body: JSON.stringify(INITIALIZE) })
    expect(res.status).toBe(200)
  })
})

describe('authentication before anything else on /mcp (RULES.md Authentication)', () => {
  const bodies: Array<[string, string, string]> = [
    ['a valid initialize', 'application/json', JSON.stringify(INITIALIZE)],
    ['malformed JSON', 'application/json', '{"jsonrpc": '],
    ['a JSON-RPC array of junk', 'application/json', '[1, {"method": 5}]'],
    ['a non-JSON body', 'text/plain', 'hello'],
    ['an empty body', 'application/json', ''],
  ]
  const credentials: Array<[string, Record<string, string>]> = [
    ['no credential', {}],
    ['an unknown key', { 'x-service-key': 'svc_test_nope0000000000000000000000000000' }],
    ['an API key as Bearer', { authorization: `Bearer ${WORLD_KEYS.owner}` }],
  ]
  const cases = credentials.flatMap(([who, headers]) => bodies.map(([what, type, body]) => [who, what, headers, type, body] as const))

  it.each(cases)('%s with %s → 401 with the OAuth challenge', async (_who, _what, headers, type, body) => {
    const res = await fetch(`${sb.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': type, accept: 'application/json, text/event-stream', ...headers }, body })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="/)
  })

  it.each(['GET', 'PUT', 'DELETE'])('%s /mcp without a credential → 401 too', async (method) => {
    const res = await fetch(`${sb.baseUrl}/mcp`, { method })
    expect(res.status).toBe(401)
  })

  it('with a valid credential, malformed JSON is a 400 JSON error', async () => {
    const res = await fetch(`${sb.baseUrl}/mcp`, { method: 'POST', headers: { ...mcpHeaders, ...key }, body: '{"jsonrpc": ' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'INVALID_REQUEST' })
  })
})

describe(`MCP sessions: at most ${SESSION_LIMITS.perCaller} per credential`, () => {
  it('the 33rd initialize of one key ends only that key\'s oldest session; another key\'s session survives', async () => {
    const open = async (headers: Record<string, string>) => (await rpc(sb.baseUrl, INITIALIZE, headers)).headers.get('mcp-session-id') as string
    const alive = async (headers: Record<string, string>, session: string) =>
      (await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...headers, 'mcp-session-id': session })).status
    const other = { 'x-service-key': WORLD_KEYS.alexClientB }
    const theirs = await open(other)
    const mine: string[] = []
    for (let i = 0; i < SESSION_LIMITS.perCaller + 1; i++) mine.push(await open(key))
    expect(await alive(key, mine[0])).toBe(404)
    expect(await alive(key, mine[1])).toBe(200)
    expect(await alive(key, mine[SESSION_LIMITS.perCaller])).toBe(200)
    expect(await alive(other, theirs)).toBe(200)
  })
})

describe('OAuth over plain http only on a loopback connection (the socket decides, not Host)', () => {
  let sandbox: Sandbox
  let stranger: Listening
  beforeAll(async () => {
    sandbox = await buildSandbox({ world: 'multi-workspace', adminToken: 'T0ken' })
    // A connection from 203.0.113.9 that claims `Host: 127.0.0.1`, as a stranger on a 0.0.0.0 bind would.
    const fromElsewhere: RequestListener = (req, res) => {
      Object.defineProperty(req.socket, 'remoteAddress', { value: '203.0.113.9', configurable: true })
      sandbox.baseListener(req, res)
    }
    stranger = await listen(fromElsewhere, '127.0.0.1', 0)
  })
  afterAll(async () => {
    await stranger.close()
    await sandbox.close()
  })

  it.each([
    ['GET', '/.well-known/oauth-authorization-server'],
    ['GET', '/authorize?response_type=code&client_id=x&code_challenge=abc&code_challenge_method=S256'],
    ['POST', '/register'],
    ['POST', '/token'],
    ['POST', '/oauth/sign-in'],
  ])('%s %s from a remote socket → 404 JSON, whatever Host says', async (method, path) => {
    const res = await raw(`${stranger.url}${path}`, { method, headers: { host: new URL(stranger.url).host, 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined })
    expect(res.status).toBe(404)
    expect(JSON.parse(res.body)).toHaveProperty('code')
  })

  it('the same paths answer on a loopback socket', async () => {
    const local = await listen(sandbox.baseListener, '127.0.0.1', 0)
    try {
      expect((await fetch(`${local.url}/.well-known/oauth-authorization-server`)).status).toBe(200)
    } finally {
      await local.close()
    }
  })
})
