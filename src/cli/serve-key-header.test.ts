import { afterEach, describe, expect, it } from 'vitest'
import { KEYS, call } from '../test-support/http.js'
import { killServeChildren, spawnServe } from '../test-support/serve-child.js'

afterEach(async () => {
  await killServeChildren()
})

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })

// Spawns the real CLI: `serve --key-header` end to end (issue 35).
describe('adops-sandbox serve --key-header', { timeout: 60_000 }, () => {
  it('reads a key from each named header on REST and on hosted MCP without a session', async () => {
    const run = spawnServe(['--state', 'memory', '--json', '--key-header', 'X-Partner-Key', '--key-header', 'X-Other-Key'])
    const banner = await run.banner()
    const me = await call(banner.api_url, 'GET', '/v1/me', { headers: { 'X-Other-Key': KEYS.owner } })
    expect(me.body.workspace?.id).toBe('ws_acme')
    const mcp = await fetch(`${banner.base_url}/mcp`, {
      method: 'POST', body: TOOLS_LIST,
      headers: { 'content-type': 'application/json', accept: 'application/json', 'X-Partner-Key': KEYS.agent },
    })
    expect(mcp.status).toBe(200)
    expect((await mcp.json()).result.tools.length).toBeGreaterThan(0)
    const refused = await call(banner.api_url, 'GET', '/v1/me', { headers: { 'X-Third-Key': KEYS.owner } })
    expect(refused.status).toBe(401)
    expect(refused.body.message).toContain('X-Partner-Key')
  })

  it('refuses a header that already means something else: exit 1 with a clear message, nothing listens', async () => {
    const run = spawnServe(['--state', 'memory', '--json', '--key-header', 'Cookie'])
    expect(await run.exited).toBe(1)
    expect(run.stderr()).toContain('key header "Cookie" already means something else')
    expect(run.stdout()).toBe('')
  })
})
