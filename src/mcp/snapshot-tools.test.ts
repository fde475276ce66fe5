import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { syntheticCatalog } from '../test-support/synthetic-catalog.js'
import { MCP_TOOLS } from './tool-table.js'
import { call, connectHttp, listAllTools } from './mcp-test-support.js'

// The synthetic catalog, plus two tools named like the sandbox's own (modelled: they keep the sandbox's behaviour).
const catalog = {
  tools: [
    { name: 'list_campaigns', title: 'Campaigns', description: 'Lists campaigns. [effect=read; scope=campaigns:read]', inputSchema: { type: 'object', properties: {} }, annotations: { effect: 'read' } },
    ...syntheticCatalog(),
  ],
}

let sb: TestSandbox
let owner: Client
let agent: Client
const balance = async () => (await sb.api('GET', '/v1/credits', { key: KEYS.owner })).body.balance as number
const campaigns = async () => (await sb.api('GET', '/v1/campaigns', { key: KEYS.owner })).body.campaigns as Array<{ campaign_id: string; status: string; daily_budget: number }>

beforeAll(async () => {
  sb = await startSandbox({ catalog, adminToken: 'admin-token' })
  owner = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': KEYS.owner } })
  agent = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': KEYS.agent } })
})
afterAll(async () => {
  await owner.close()
  await agent.close()
  await sb.close()
})

describe('hosted MCP serving a loaded catalog (issue 35 item 4)', () => {
  it('lists every catalog tool in its order, then the sandbox tools the catalog lacks', async () => {
    const { tools } = await listAllTools(owner)
    const names = tools.map((t) => t.name)
    expect(names.slice(0, catalog.tools.length)).toEqual(catalog.tools.map((t) => t.name))
    expect(names.slice(catalog.tools.length)).toEqual(MCP_TOOLS.map((t) => t.name).filter((n) => n !== 'list_campaigns'))
    const report = tools.find((t) => t.name === 'meta_performance_report')
    expect(report?.inputSchema).toEqual(catalog.tools.find((t) => t.name === 'meta_performance_report')?.inputSchema)
    // The SDK client keeps only the annotations it knows; the wire carries the catalog's own.
    const raw = await owner.request({ method: 'tools/list', params: {} }, z.object({ tools: z.array(z.looseObject({ name: z.string(), annotations: z.record(z.string(), z.unknown()).optional() })) }))
    expect(raw.tools.find((t) => t.name === 'meta_performance_report')?.annotations).toMatchObject({ effect: 'read', externalMutation: false, readOnlyHint: true })
    // A modelled name is described and run as the sandbox's own tool.
    expect(tools.find((t) => t.name === 'list_campaigns')?.title).toBe(MCP_TOOLS.find((t) => t.name === 'list_campaigns')?.title)
  })

  it('answers a simulated performance read with rows for the world\'s campaigns over the window, charged its stated cost', async () => {
    const before = await balance()
    const result = await call(owner, 'google_performance_report', { date_range: 'last_7_days' })
    expect(result.isError).toBeFalsy()
    const body = result.structuredContent as Record<string, any>
    expect(body).toMatchObject({ simulated: true, tool: 'google_performance_report', platform: 'google', credits_used: 2, sandbox: true })
    expect(body.date_range.days).toBe(7)
    expect(body.rows.map((r: { campaign_id: string }) => r.campaign_id).sort()).toEqual((await campaigns()).map((c) => c.campaign_id).sort())
    expect(await balance()).toBe(before - 2)
    const again = await call(owner, 'google_performance_report', { date_range: 'last_7_days' })
    expect((again.structuredContent as Record<string, any>).rows).toEqual(body.rows)
  })

  it('answers a list with items, seed-stable, and a platform the world lacks with seeded campaigns', async () => {
    const first = (await call(owner, 'tiktok_list_audiences', {})).structuredContent as Record<string, any>
    expect(first.items.length).toBeGreaterThan(0)
    expect((await call(owner, 'tiktok_list_audiences', {})).structuredContent?.items).toEqual(first.items)
    const tiktok = (await call(owner, 'tiktok_list_campaigns', {})).structuredContent as Record<string, any>
    expect(tiktok.items.every((c: { campaign_id: string }) => c.campaign_id.startsWith('sim-tiktok-'))).toBe(true)
  })

  it('answers repeated simulated reads from the world as it is now: a change to a campaign shows at once', async () => {
    const [target] = (await campaigns()).filter((c) => c.status === 'ENABLED')
    const read = async () => Promise.all([
      call(owner, 'google_get_campaign', { campaign_id: target.campaign_id }),
      call(owner, 'google_list_campaigns', {}),
      call(owner, 'google_performance_report', {}),
    ]).then((r) => r.map((x) => x.structuredContent as Record<string, any>))
    const first = await read()
    expect(await read()).toEqual(first)
    await call(owner, 'pause_campaign', { campaign_id: target.campaign_id })
    const [item, list, report] = await read()
    expect(item.item.status).toBe('PAUSED')
    expect(list.items.find((c: { campaign_id: string }) => c.campaign_id === target.campaign_id).status).toBe('PAUSED')
    expect(report.rows.find((c: { campaign_id: string }) => c.campaign_id === target.campaign_id).status).toBe('PAUSED')
  })

  it('refuses arguments its inputSchema rejects with JSON-RPC -32602, charging nothing', async () => {
    const before = await balance()
    const refusal = await owner.callTool({ name: 'meta_set_daily_budget', arguments: { campaign_id: 'c1' } }).catch((e: unknown) => e)
    expect(refusal).toBeInstanceOf(McpError)
    expect(refusal).toMatchObject({ code: -32602 })
    expect((refusal as Error).message).toContain('Invalid arguments for tool meta_set_daily_budget: daily_budget: Field required')
    const wrongType = await owner.callTool({ name: 'meta_performance_report', arguments: { days: 'thirty' } }).catch((e: unknown) => e)
    expect(wrongType).toMatchObject({ code: -32602 })
    expect(await balance()).toBe(before)
  })

  it('runs a budget write on a world campaign at once (budget class), changing the world and auditing the arguments', async () => {
    const [target] = await campaigns()
    const result = await call(agent, 'google_set_daily_budget', { campaign_id: target.campaign_id, daily_budget: target.daily_budget + 1 })
    expect(result.structuredContent).toMatchObject({ simulated: true, world_changed: true, daily_budget: { current: target.daily_budget + 1 } })
    expect((await campaigns()).find((c) => c.campaign_id === target.campaign_id)?.daily_budget).toBe(target.daily_budget + 1)
    const audit = (await sb.base('GET', `/api/v1/audit/${result.structuredContent?.audit_id}`, { key: KEYS.owner })).body
    expect(audit).toMatchObject({ script: 'google_set_daily_budget', surface: 'mcp', operation: 'budget', status: 'executed', credits: 5 })
    expect(audit.args).toEqual([`--campaign_id=${JSON.stringify(target.campaign_id)}`, `--daily_budget=${target.daily_budget + 1}`])
  })

  it('holds a publish and an external mutation under the default policy; an approval runs exactly the held call', async () => {
    const publish = await call(agent, 'meta_publish_ad', { ad_id: 'ad_1' })
    expect(publish.structuredContent).toMatchObject({ status: 'pending_review', decision: { rule: 'hold.operation' } })
    const [target] = (await campaigns()).filter((c) => c.status === 'ENABLED')
    const pause = await call(agent, 'google_pause_campaign', { campaign_id: target.campaign_id })
    expect(pause.structuredContent).toMatchObject({ status: 'PAUSED', previous_status: 'ENABLED', world_changed: true })
    const push = await call(agent, 'shop_update_product_price', { product_id: 'p1', price: 9.5 })
    expect(push.structuredContent).toMatchObject({ status: 'pending_review', decision: { explanation: { list: { matched: 'external' } } } })
    const approved = await sb.base('POST', `/api/v1/audit/${push.structuredContent?.audit_id}/approve`, { key: KEYS.reviewer, body: {} })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ audit: { status: 'executed' }, result: { simulated: true, status: 'accepted', tool: 'shop_update_product_price' } })
  })

  it('shows a held catalog write in the console queue with its title and cost; the console\'s approval runs it', async () => {
    const held = await call(agent, 'pinterest_publish_ad', { ad_id: 'ad_9' })
    const id = held.structuredContent?.audit_id as string
    const queue = await sb.base('GET', '/_sandbox/console/queue')
    expect(queue.body.entries.find((e: { id: string }) => e.id === id)).toMatchObject({ script: 'pinterest_publish_ad', title: 'Pinterest Publish Ad', cost: 20, args: ['--ad_id="ad_9"'] })
    const before = await balance()
    const approved = await sb.base('POST', `/_sandbox/reviews/${id}/approve`, { body: { reviewer: 'Dana' } })
    expect(approved.body).toMatchObject({ audit: { status: 'executed', credits: 20 }, result: { tool: 'pinterest_publish_ad', simulated: true } })
    expect(await balance()).toBe(before - 20)
  })

  it('blocks a catalog tool the policy names in block_tools, before anything runs', async () => {
    const put = await sb.base('PUT', '/_sandbox/workspaces/ws_acme/policy', { body: { block_tools: ['reddit_create_campaign_draft'] } })
    expect(put.status).toBe(200)
    const blocked = await call(agent, 'reddit_create_campaign_draft', { name: 'Spring' })
    expect(blocked.isError).toBe(true)
    expect(blocked.structuredContent).toMatchObject({ code: 'POLICY_BLOCKED', rule: 'block.tool' })
    await sb.base('PUT', '/_sandbox/workspaces/ws_acme/policy', { body: { block_tools: [] } })
  })

  it('keeps scopes: a key without the sandbox scope a tool declares is refused', async () => {
    const reporting = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': KEYS.reporting } })
    const refused = await call(reporting, 'google_set_daily_budget', { campaign_id: 'x', daily_budget: 5 })
    expect(refused.structuredContent).toMatchObject({ code: 'SCOPE_MISSING', scope: 'budget:write' })
    await reporting.close()
  })
})
