import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, call, startSandbox } from '../test-support/http.js'
import { INITIALIZE, rpc } from '../mcp/mcp-test-support.js'
import { keyHeadersOf } from './credentials.js'

const open: TestSandbox[] = []
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close()
})
async function sandbox(keyHeaders?: string[], world?: string): Promise<TestSandbox> {
  const sb = await startSandbox({ keyHeaders, world })
  open.push(sb)
  return sb
}

const RUN = { script_name: 'list_campaigns', platform: 'google', args: [] }
const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' }

/** One request per surface, the key in `headers` only. */
async function everySurface(sb: TestSandbox, headers: Record<string, string>) {
  return {
    dispatcherBase: (await sb.base('POST', '/api/v1/tools/run', { headers, body: RUN })).status,
    dispatcherApi: (await sb.api('POST', '/v1/tools/run', { headers, body: RUN })).status,
    resource: (await sb.api('GET', '/v1/campaigns', { headers })).status,
    landingPages: (await sb.base('GET', '/api/v1/landing-pages', { headers })).status,
    mcpInitialize: (await rpc(sb.baseUrl, INITIALIZE, { ...headers, accept: 'application/json' })).status,
    mcpStateless: (await rpc(sb.baseUrl, TOOLS_LIST, { ...headers, accept: 'application/json' })).status,
  }
}

describe('--key-header: more header names that carry a key like X-Service-Key (issue 35)', () => {
  it('reads the key from a configured header on REST (both hosts, tools and resources) and hosted MCP', async () => {
    const sb = await sandbox(['X-Partner-Key'])
    const answers = await everySurface(sb, { 'X-Partner-Key': KEYS.agent })
    expect(answers).toEqual({ dispatcherBase: 200, dispatcherApi: 200, resource: 200, landingPages: 200, mcpInitialize: 200, mcpStateless: 200 })
  })

  it('does not read that header on a sandbox that was not told to: 401 everywhere', async () => {
    const sb = await sandbox()
    const answers = await everySurface(sb, { 'X-Partner-Key': KEYS.agent })
    expect(Object.values(answers)).toEqual([401, 401, 401, 401, 401, 401])
  })

  it('takes the names from the world file too (key_headers), case-insensitively', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'key-headers-'))
    try {
      const world = join(dir, 'world.yaml')
      await writeFile(world, `${await readFile('fixtures/worlds/default.yaml', 'utf8')}\nkey_headers: [x-partner-key]\n`)
      const sb = await sandbox(undefined, world)
      expect(await everySurface(sb, { 'X-PARTNER-KEY': KEYS.agent })).toMatchObject({ dispatcherBase: 200, resource: 200, mcpStateless: 200 })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuses two different keys in X-Service-Key and the configured header (400 MULTIPLE_CREDENTIALS), REST and MCP', async () => {
    const sb = await sandbox(['X-Partner-Key'])
    const headers = { 'X-Service-Key': KEYS.agent, 'X-Partner-Key': KEYS.owner }
    const rest = await sb.base('POST', '/api/v1/tools/run', { headers, body: RUN })
    expect(rest.body).toMatchObject({ code: 'MULTIPLE_CREDENTIALS' })
    const mcp = await rpc(sb.baseUrl, TOOLS_LIST, { ...headers, accept: 'application/json' })
    expect(mcp.status).toBe(400)
    expect(await mcp.json()).toMatchObject({ code: 'MULTIPLE_CREDENTIALS', headers: ['X-Service-Key', 'X-Partner-Key'] })
    const mcpWithToken = await rpc(sb.baseUrl, TOOLS_LIST, { 'X-Partner-Key': KEYS.agent, authorization: 'Bearer abc', accept: 'application/json' })
    expect(await mcpWithToken.json()).toMatchObject({ code: 'MULTIPLE_CREDENTIALS', headers: ['X-Partner-Key', 'Authorization'] })
  })

  it('masks the configured header in the journal like X-Service-Key, whatever its value looks like', async () => {
    const plain = await sandbox()
    // A sandbox without the name, in the same process, first: what it keeps as plain text is not reused.
    await plain.base('POST', '/api/v1/tools/run', { headers: { 'X-Partner-Key': 'opaque-partner-token-123' }, body: RUN })
    const sb = await sandbox(['X-Partner-Key'])
    for (const value of ['opaque-partner-token-123', KEYS.agent]) {
      await sb.base('POST', '/api/v1/tools/run', { headers: { 'X-Partner-Key': value }, body: RUN })
      await rpc(sb.baseUrl, TOOLS_LIST, { 'X-Partner-Key': value, accept: 'application/json' })
    }
    const journal = await sb.base('GET', '/_sandbox/journal')
    const text = JSON.stringify(journal.body)
    expect(text).not.toContain('opaque-partner-token-123')
    expect(text).not.toContain(KEYS.agent)
    const entries = journal.body.entries as Array<{ request: { headers: Record<string, string> }; key_prefix: string | null }>
    expect(entries.map((e) => e.request.headers['x-partner-key'])).toEqual(entries.map(() => expect.stringMatching(/…|\*|redacted/)))
    expect(entries.some((e) => e.key_prefix === KEYS.agent.slice(0, 12))).toBe(true)
  })

  it('allows the configured header in the hosted MCP CORS preflight', async () => {
    const sb = await sandbox(['X-Partner-Key'])
    const pre = await fetch(`${sb.baseUrl}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' } })
    expect(pre.headers.get('access-control-allow-headers')).toContain('x-partner-key')
  })

  it.each([['Cookie'], ['authorization'], ['X-Sandbox-Admin'], ['Mcp-Session-Id'], ['bad name'], ['x'.repeat(64)], ['']])('refuses %j as a key header name', async (name) => {
    expect(() => keyHeadersOf([name])).toThrow(RangeError)
    await expect(startSandbox({ keyHeaders: [name] })).rejects.toThrow(RangeError)
  })
})

describe('401 bodies name the accepted headers in error, message and error_description alike (issue 35)', () => {
  it('on REST: the same sentence in all three, naming the configured header', async () => {
    const sb = await sandbox(['X-Partner-Key'])
    for (const answer of [
      await sb.base('POST', '/api/v1/tools/run', { body: RUN }),
      await sb.api('GET', '/v1/campaigns', { headers: { 'X-Partner-Key': 'svc_test_nope0000000000000000000000000000' } }),
    ]) {
      expect(answer.status).toBe(401)
      const { error, message, error_description: description, accepted_headers: accepted } = answer.body
      expect(message).toBe(error)
      expect(description).toBe(error)
      expect(error).toContain('X-Partner-Key')
      expect(error).toContain('X-Service-Key')
      expect(accepted).toContain('X-Partner-Key')
    }
  })

  it('on REST without configured headers: the surface\'s own headers', async () => {
    const sb = await sandbox()
    const answer = await call(sb.apiUrl, 'GET', '/v1/campaigns')
    expect(answer.body).toMatchObject({ code: 'AUTHENTICATION_REQUIRED', accepted_headers: ['Authorization', 'X-Service-Key'] })
    expect(answer.body.error).toBe('Missing or invalid API key: no API key was sent; send the key in `Authorization: Bearer <key>` or `X-Service-Key: <key>`.')
    expect(answer.body.message).toBe(answer.body.error)
  })

  it('on hosted MCP: the sign-in prompt and the unknown-key answer both name the key headers in all three fields', async () => {
    const sb = await sandbox(['X-Partner-Key'])
    const prompt = await rpc(sb.baseUrl, TOOLS_LIST, { accept: 'application/json' })
    const unknown = await rpc(sb.baseUrl, TOOLS_LIST, { 'X-Partner-Key': 'svc_test_nope0000000000000000000000000000', accept: 'application/json' })
    for (const res of [prompt, unknown]) {
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toContain('resource_metadata=')
      const body = await res.json()
      expect(body.message).toBe(body.error)
      expect(body.error_description).toBe(body.error)
      expect(body.error).toContain('X-Partner-Key')
    }
  })
})
