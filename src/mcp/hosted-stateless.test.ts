import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { INITIALIZE, call, connectHttp, rpc } from './mcp-test-support.js'
import { MCP_TOOLS } from './tool-table.js'
import { BATCH_REFUSED } from './hosted-transport.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startSandbox()
})
afterEach(async () => {
  await sb.close()
})

const key = { 'X-Service-Key': KEYS.agent }
const json = { ...key, accept: 'application/json' }

async function enabledCampaign(): Promise<string> {
  const listed = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.agent, body: { script_name: 'list_campaigns', platform: 'google', args: ['--status', 'ENABLED'] } })
  return listed.body.campaigns[0].campaign_id as string
}

async function toolCall(name: string, args: Record<string, unknown>, headers: Record<string, string> = json) {
  const res = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }, headers)
  return { res, body: await res.json() }
}

describe('stateless hosted MCP: requests without Mcp-Session-Id (issue 35)', () => {
  it('answers tools/list, ping and tools/call to a client that never initialised, and opens no session', async () => {
    const list = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, json)
    expect(list.status).toBe(200)
    expect(list.headers.get('mcp-session-id')).toBeNull()
    expect((await list.json()).result.tools.map((t: { name: string }) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name))
    const ping = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 2, method: 'ping' }, json)
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} })
    const { res, body } = await toolCall('get_credit_balance', {})
    expect(res.status).toBe(200)
    expect(body.result.structuredContent).toMatchObject({ workspace_id: 'ws_acme', balance: 1000 })
  })

  it('runs a stateless write through the same gate, audit and credits as a session (held enable stays held)', async () => {
    const campaign = await enabledCampaign()
    const paused = await toolCall('pause_campaign', { campaign_id: campaign })
    expect(paused.body.result.structuredContent).toMatchObject({ status: 'PAUSED', credits_used: 2, audit_id: expect.any(String) })
    const held = await toolCall('enable_campaign', { campaign_id: campaign })
    expect(held.body.result.structuredContent).toMatchObject({ status: 'pending_review' })
    const audit = await sb.base('GET', '/api/v1/audit', { key: KEYS.owner })
    const mine = audit.body.entries.filter((e: { args: string[] }) => e.args.includes(campaign))
    expect(mine.map((e: { surface: string; status: string }) => [e.surface, e.status])).toEqual(expect.arrayContaining([['mcp', 'executed'], ['mcp', 'pending_review']]))
  })

  it('still refuses a session id the caller did not open (404) and an anonymous request (401)', async () => {
    const unknown = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...json, 'mcp-session-id': 'mcps_nope' })
    expect(unknown.status).toBe(404)
    const anonymous = await rpc(sb.baseUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json' })
    expect(anonymous.status).toBe(401)
  })

  it('serves the official SDK transport sending requests with no initialize and no session', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${sb.baseUrl}/mcp`), { requestInit: { headers: key } })
    const replies: JSONRPCMessage[] = []
    // Replies arrive on the SSE stream after `send` resolves: wait for both.
    const both = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        if (replies.push(message) === 2) resolve()
      }
    })
    await transport.start()
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_campaigns', arguments: { status: 'PAUSED' } } })
    await both
    await transport.close()
    expect(transport.sessionId).toBeUndefined()
    const byId = new Map(replies.map((m) => [(m as { id: number }).id, m as { result: Record<string, any> }]))
    expect(byId.get(1)?.result.tools).toHaveLength(MCP_TOOLS.length)
    expect(byId.get(2)?.result.structuredContent.campaigns.every((c: { status: string }) => c.status === 'PAUSED')).toBe(true)
  })

  it('keeps sessions for the official SDK client that initialises', async () => {
    const client = await connectHttp(sb.baseUrl, { headers: key })
    const transport = (client as unknown as { transport: StreamableHTTPClientTransport }).transport
    expect(transport.sessionId).toMatch(/^mcps_/)
    expect((await call(client, 'get_credit_balance')).structuredContent).toMatchObject({ workspace_id: 'ws_acme' })
    expect((await client.ping())).toEqual({})
    await client.close()
  })
})

describe('JSON-RPC batches on /mcp are refused whole (issue 33 item 5)', () => {
  it('refuses a batch with a pause inside: 400 -32600, nothing paused, charged, audited or opened', async () => {
    const campaign = await enabledCampaign()
    const before = await sb.stateText()
    const pause = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'pause_campaign', arguments: { campaign_id: campaign } } }
    for (const batch of [[pause], [INITIALIZE, pause], [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, pause], []]) {
      const res = await rpc(sb.baseUrl, batch, json)
      expect(res.status).toBe(400)
      expect(res.headers.get('mcp-session-id')).toBeNull()
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: BATCH_REFUSED } })
    }
    expect(await sb.stateText()).toBe(before)
  })

  it('refuses a batch inside a session the same way, and asks an anonymous batch for a credential first (401)', async () => {
    const init = await rpc(sb.baseUrl, INITIALIZE, json)
    const session = init.headers.get('mcp-session-id') as string
    const inSession = await rpc(sb.baseUrl, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { ...json, 'mcp-session-id': session })
    expect(inSession.status).toBe(400)
    expect((await inSession.json()).error.code).toBe(-32600)
    const anonymous = await rpc(sb.baseUrl, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { accept: 'application/json' })
    expect(anonymous.status).toBe(401)
  })
})
