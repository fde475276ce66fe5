import { request } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { MCP_TOOLS } from './tool-table.js'
import { INITIALIZE, WORLD_KEYS, call, connectHttp, listAllTools, rpc } from './mcp-test-support.js'

let sb: RunningSandbox
const closers: Array<() => Promise<unknown>> = []
beforeEach(async () => {
  sb = await createSandbox()
})
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  await sb.close()
})

async function client(headers: Record<string, string>) {
  const c = await connectHttp(sb.baseUrl, { headers })
  closers.push(() => c.close())
  return c
}

describe('hosted MCP with a pinned key in X-Service-Key (MCP-01)', () => {
  it('lists every tool on one page by default, with titles and read/destructive hints', async () => {
    const c = await client({ 'X-Service-Key': WORLD_KEYS.owner })
    const { tools, pages } = await listAllTools(c)
    expect(pages).toBe(1)
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name))
    const pause = tools.find((t) => t.name === 'pause_campaign')
    expect(pause?.annotations).toMatchObject({ title: 'Pause a campaign', readOnlyHint: false, destructiveHint: true })
    expect(pause?.inputSchema.required).toContain('campaign_id')
    expect(tools.find((t) => t.name === 'list_campaigns')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false })
  })

  it('calls a tool in the key\'s workspace', async () => {
    const c = await client({ 'X-Service-Key': WORLD_KEYS.owner })
    const result = await call(c, 'get_credit_balance')
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ workspace_id: 'ws_acme', balance: 1000, sandbox: true })
  })

  it('refuses an unpinned key: a key selects its workspace by being pinned (403, nothing runs)', async () => {
    const res = await rpc(sb.baseUrl, INITIALIZE, { 'X-Service-Key': WORLD_KEYS.signup })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ code: 'WORKSPACE_SCOPE_REQUIRED', error: 'This API key is not scoped to a workspace.' })
  })

  it('answers an unknown X-Service-Key with 401 and the sign-in challenge', async () => {
    const res = await rpc(sb.baseUrl, INITIALIZE, { 'X-Service-Key': 'svc_test_nope0000000000000000000000000000' })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=')
    expect(await res.json()).toMatchObject({ code: 'AUTHENTICATION_REQUIRED' })
  })

  it('refuses two credential headers with 400 MULTIPLE_CREDENTIALS', async () => {
    const res = await rpc(sb.baseUrl, INITIALIZE, { 'X-Service-Key': WORLD_KEYS.owner, authorization: `Bearer ${WORLD_KEYS.owner}` })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'MULTIPLE_CREDENTIALS' })
  })
})

/** POSTs an MCP initialize with header lines sent exactly as given (fetch would merge repeated names). */
function postLines(url: string, lines: Record<string, string[]>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...lines } }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(JSON.stringify(INITIALIZE))
  })
}

describe('repeated credential lines on hosted MCP', () => {
  it.each(['X-Service-Key', 'Authorization'])('two %s lines with different values are 400 MULTIPLE_CREDENTIALS', async (name) => {
    const value = (key: string) => (name === 'Authorization' ? `Bearer ${key}` : key)
    const res = await postLines(sb.baseUrl, { [name]: [value(WORLD_KEYS.owner), value(WORLD_KEYS.agent)] })
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body)).toMatchObject({ code: 'MULTIPLE_CREDENTIALS' })
  })

  it('the same pinned key on two X-Service-Key lines is accepted', async () => {
    const res = await postLines(sb.baseUrl, { 'X-Service-Key': [WORLD_KEYS.owner, WORLD_KEYS.owner] })
    expect(res.status).toBe(200)
  })
})

describe('an API key in Authorization looks like a sign-in prompt (MCP-02)', () => {
  it.each([
    ['a valid API key as Bearer', { authorization: `Bearer ${WORLD_KEYS.owner}` }],
    ['no credential at all', {}],
    ['a non-Bearer scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
  ])('%s → 401 with WWW-Authenticate naming the resource metadata and an OAuth error body', async (_name, headers) => {
    const res = await rpc(sb.baseUrl, INITIALIZE, headers as Record<string, string>)
    expect(res.status).toBe(401)
    const challenge = res.headers.get('www-authenticate') ?? ''
    expect(challenge).toMatch(/^Bearer /)
    expect(challenge).toContain(`resource_metadata="${sb.baseUrl}/.well-known/oauth-protected-resource/mcp"`)
    const body = await res.json()
    // The OAuth code first, then the hint naming the key header, the same in all three fields (issue 35).
    expect(body.error).toMatch(/^invalid_token: .*X-Service-Key/)
    expect(body.message).toBe(body.error)
    expect(body.error_description).toBe(body.error)
    expect(body.code).toBeUndefined()
    const metadata = await fetch(`${sb.baseUrl}/.well-known/oauth-protected-resource/mcp`)
    expect(metadata.status).toBe(200)
    expect(await metadata.json()).toMatchObject({ resource: `${sb.baseUrl}/mcp`, authorization_servers: [`${sb.baseUrl}/`] })
  })
})

describe('no header switches workspace (MCP-03)', () => {
  it('ignores workspace-looking headers: a Client A key stays in Client A', async () => {
    await sb.close()
    sb = await createSandbox({ world: 'multi-workspace' })
    const c = await client({ 'X-Service-Key': WORLD_KEYS.alexClientA, 'X-Workspace-Id': 'ws_client_b', 'X-Tenant-Id': 'ws_client_b' })
    expect((await call(c, 'get_credit_balance')).structuredContent).toMatchObject({ workspace_id: 'ws_client_a', balance: 800 })
    const accounts = await call(c, 'list_connected_accounts')
    expect(accounts.structuredContent?.connections.map((x: { id: string }) => x.id)).toEqual(['conn_google_client_a'])
  })

  it('binds a session to the credential that opened it: another key gets 404 for that session', async () => {
    await sb.close()
    sb = await createSandbox({ world: 'multi-workspace' })
    const init = await rpc(sb.baseUrl, INITIALIZE, { 'X-Service-Key': WORLD_KEYS.alexClientA })
    const session = init.headers.get('mcp-session-id') as string
    expect(session).toBeTruthy()
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    const other = await rpc(sb.baseUrl, list, { 'X-Service-Key': WORLD_KEYS.alexClientB, 'mcp-session-id': session })
    expect(other.status).toBe(404)
    const own = await rpc(sb.baseUrl, list, { 'X-Service-Key': WORLD_KEYS.alexClientA, 'mcp-session-id': session, accept: 'application/json' })
    expect(own.status).toBe(200)
  })
})

describe('Streamable HTTP transport', () => {
  const key = { 'X-Service-Key': WORLD_KEYS.owner }

  it('returns Mcp-Session-Id on initialize, 202 for a notification; no session id is stateless, an unknown one 404', async () => {
    const init = await rpc(sb.baseUrl, INITIALIZE, { ...key, accept: 'application/json' })
    expect(init.status).toBe(200)
    expect(init.headers.get('content-type')).toContain('application/json')
    expect((await init.json()).result.serverInfo.name).toBe('adops-sandbox')
    const session = init.headers.get('mcp-session-id') as string
    const note = await rpc(sb.baseUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...key, 'mcp-session-id': session })
    expect(note.status).toBe(202)
    const stateless = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, key)
    expect(stateless.status).toBe(200)
    expect(stateless.headers.get('mcp-session-id')).toBeNull()
    const unknown = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...key, 'mcp-session-id': 'mcps_nope' })
    expect(unknown.status).toBe(404)
  })

  it('answers JSON or SSE according to Accept', async () => {
    const init = await rpc(sb.baseUrl, INITIALIZE, key)
    const session = init.headers.get('mcp-session-id') as string
    const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' }
    const sse = await rpc(sb.baseUrl, list, { ...key, 'mcp-session-id': session, accept: 'application/json, text/event-stream' })
    expect(sse.headers.get('content-type')).toContain('text/event-stream')
    const text = await sse.text()
    expect(text).toMatch(/^event: message\ndata: /m)
    expect(JSON.parse(text.split('data: ')[1]).result.tools.length).toBeGreaterThan(0)
    const json = await rpc(sb.baseUrl, list, { ...key, 'mcp-session-id': session, accept: 'application/json' })
    expect(json.headers.get('content-type')).toContain('application/json')
    expect((await json.json()).result.tools.length).toBe(MCP_TOOLS.length)
    const neither = await rpc(sb.baseUrl, list, { ...key, 'mcp-session-id': session, accept: 'text/html' })
    expect(neither.status).toBe(406)
    const form = await rpc(sb.baseUrl, list, { ...key, 'mcp-session-id': session, 'content-type': 'text/plain' })
    expect(form.status).toBe(415)
  })

  it('answers a CORS preflight for browser clients and exposes the session id and challenge', async () => {
    const pre = await fetch(`${sb.baseUrl}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-service-key' } })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-headers')).toContain('X-Service-Key')
    const init = await rpc(sb.baseUrl, INITIALIZE, { ...key, origin: 'http://localhost:6274' })
    expect(init.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id')
  })

  it('ends a session on DELETE; GET is 405', async () => {
    const init = await rpc(sb.baseUrl, INITIALIZE, key)
    const session = init.headers.get('mcp-session-id') as string
    const del = await fetch(`${sb.baseUrl}/mcp`, { method: 'DELETE', headers: { ...key, 'mcp-session-id': session } })
    expect(del.status).toBe(200)
    const after = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...key, 'mcp-session-id': session })
    expect(after.status).toBe(404)
    const get = await fetch(`${sb.baseUrl}/mcp`, { headers: key })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST, DELETE')
  })
})
