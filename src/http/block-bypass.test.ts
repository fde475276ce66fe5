import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { call as callTool, connectHttp } from '../mcp/mcp-test-support.js'

/**
 * The agent that tries to get around a block (GATE-02 sandbox decision): another name for the same
 * write, another surface, a spelling of the name, a campaign created over the budget limit, a
 * campaign created under it and then raised. Under the default policy a pause that is not blocked
 * runs at once, so every bypass would show as a paused campaign.
 */
let sb: TestSandbox
let mcp: Client
let enabled: string

beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(async () => sb.close())
beforeEach(async () => {
  await sb.control.reset()
  mcp = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': KEYS.owner } })
  enabled = (await sb.api('GET', '/v1/campaigns?status=ENABLED', { key: KEYS.owner })).body.campaigns[0].campaign_id
  return () => mcp.close()
})

const setPolicy = (body: Record<string, unknown>) => sb.base('PUT', '/_sandbox/workspaces/ws_acme/policy', { body })
const dispatch = (host: 'base' | 'api', script_name: string, args: string[], platform?: string) =>
  host === 'base'
    ? sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name, args, ...(platform ? { platform } : {}) } })
    : sb.api('POST', '/v1/tools/run', { key: KEYS.owner, body: { script_name, args, ...(platform ? { platform } : {}) } })
const campaign = async (id: string) => (await sb.api('GET', `/v1/campaigns/${id}`, { key: KEYS.owner })).body
const campaignCount = async () => (await sb.api('GET', '/v1/campaigns', { key: KEYS.owner })).body.campaigns.length as number
const balance = async () => (await sb.api('GET', '/v1/credits', { key: KEYS.owner })).body.balance as number
const searchArgs = (budget: number) => ['--campaign-name', `Tents ${budget}`, '--daily-budget', String(budget), '--final-url', 'https://acme.test',
  '--headline', 'a', '--headline', 'b', '--headline', 'c', '--description', 'd', '--description', 'e']

describe('the five bypasses of issue 33 are closed under the default policy', () => {
  it.each([
    ['pause_campaign', 'google_ads_pause_campaign on the dispatcher', () => dispatch('base', 'google_ads_pause_campaign', ['--campaign-id', enabled, '--action', 'pause'])],
    ['pause_campaign', 'google_ads_pause_campaign on MCP run_tool', async () => toAnswer(await callTool(mcp, 'run_tool', { script_name: 'google_ads_pause_campaign', args: ['--campaign-id', enabled, '--action', 'pause'] }))],
    ['google_ads_pause_campaign', 'pause_campaign on the dispatcher', () => dispatch('api', 'pause_campaign', ['--campaign-id', enabled], 'google')],
    ['google_ads_pause_campaign', 'POST /v1/campaigns/{id}/pause', () => sb.api('POST', `/v1/campaigns/${enabled}/pause`, { key: KEYS.owner, body: {} })],
    ['google_ads_pause_campaign', 'the MCP pause_campaign tool', async () => toAnswer(await callTool(mcp, 'pause_campaign', { campaign_id: enabled }))],
  ])('block_tools [%s] blocks %s: 403 blocked, the campaign keeps running', async (blocked, _way, attempt) => {
    expect((await setPolicy({ block_tools: [blocked] })).status).toBe(200)
    const before = await balance()
    expect(await attempt()).toMatchObject({ status: 403, body: { status: 'blocked', code: 'POLICY_BLOCKED' } })
    expect(await campaign(enabled)).toMatchObject({ status: 'ENABLED' })
    expect(await balance()).toBe(before)
  })
})

// An MCP tool result as the HTTP answer it mirrors.
function toAnswer(result: { isError?: boolean; structuredContent?: Record<string, any> }): { status: number; body: Record<string, unknown> } {
  return { status: result.structuredContent?.http_status ?? (result.isError ? 400 : 200), body: result.structuredContent ?? {} }
}

describe('spellings of a name', () => {
  it.each(['PAUSE_CAMPAIGN', 'Pause-Campaign', ' pause campaign '])('the policy entry %j blocks pause_campaign', async (spelled) => {
    expect((await setPolicy({ block_tools: [spelled] })).status).toBe(200)
    expect(await dispatch('base', 'pause_campaign', ['--campaign-id', enabled], 'google')).toMatchObject({ status: 403, body: { status: 'blocked' } })
  })

  it.each(['PAUSE_CAMPAIGN', 'pause-campaign', 'Google_Ads_Pause_Campaign'])('dispatching %j is no way around a block: 400 UNKNOWN_SCRIPT, nothing runs', async (spelled) => {
    await setPolicy({ block_tools: ['pause_campaign'] })
    expect(await dispatch('base', spelled, ['--campaign-id', enabled], 'google')).toMatchObject({ status: 400, body: { code: 'UNKNOWN_SCRIPT' } })
    expect(await campaign(enabled)).toMatchObject({ status: 'ENABLED' })
  })

  it.each([
    ['pause_campaing', 'names nothing in the catalog', 'pause_campaign'],
    ['list_campaigns', 'is a read', undefined],
    ['stage_audience_artifact', 'is not a gated write', undefined],
  ])('a policy naming %j is refused with a 400 naming it, and the policy is unchanged', async (name, reason, near) => {
    await setPolicy({ block_tools: ['remove_campaign'] })
    const refused = await setPolicy({ block_tools: ['pause_campaign', name] })
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', field: 'block_tools', unknown: [name] } })
    expect(refused.body.error).toContain(reason)
    if (near) expect(refused.body.did_you_mean).toContain(near)
    expect((await sb.base('GET', '/_sandbox/workspaces/ws_acme/policy')).body.policy.block_tools).toEqual(['remove_campaign'])
  })

  it('a workspace created on the control plane with a name that blocks nothing is refused, and not created', async () => {
    const refused = await sb.base('POST', '/_sandbox/workspaces', { body: { id: 'ws_new', name: 'New', owner_user_id: 'usr_olivia', policy: { block_tools: ['pause_campaing'] } } })
    expect(refused).toMatchObject({ status: 400, body: { field: 'block_tools' } })
    expect((await sb.base('GET', '/_sandbox/workspaces')).body.workspaces.map((w: { id: string }) => w.id)).not.toContain('ws_new')
  })
})

describe('max_daily_budget governs the budget of a campaign being created (GATE-02 sandbox decision)', () => {
  it.each([
    ['base dispatcher', (args: string[]) => dispatch('base', 'google_ads_create_search_campaign', args)],
    ['api dispatcher', (args: string[]) => dispatch('api', 'google_ads_create_search_campaign', args)],
    ['MCP run_tool', async (args: string[]) => toAnswer(await callTool(mcp, 'run_tool', { script_name: 'google_ads_create_search_campaign', args }))],
  ])('with no hold on create, a 50 000/day campaign over a 500 limit is blocked on the %s', async (_surface, create) => {
    await setPolicy({ hold: [], limits: { max_daily_budget: 500 } })
    const [count, before] = [await campaignCount(), await balance()]
    const answer = await create(searchArgs(50_000))
    expect(answer).toMatchObject({ status: 403, body: { status: 'blocked', code: 'POLICY_BLOCKED', rule: 'block.max_daily_budget' } })
    expect([await campaignCount(), await balance()]).toEqual([count, before])
  })

  it('the block names the limit, a new campaign and the proposed budget; a dry run gives the same decision', async () => {
    await setPolicy({ limits: { max_daily_budget: 500 } })
    const blocked = await dispatch('base', 'google_ads_create_search_campaign', searchArgs(501))
    const entry = (await sb.base('GET', `/api/v1/audit/${blocked.body.audit_id}`, { key: KEYS.owner })).body
    expect(entry).toMatchObject({ status: 'blocked', rule: 'block.max_daily_budget', explanation: { limit: { name: 'max_daily_budget', limit: 500, campaign_id: null, current: 0, proposed: 501 } } })
    const dry = await dispatch('base', 'google_ads_create_search_campaign', [...searchArgs(501), '--dry-run'])
    expect(dry.body).toMatchObject({ decision: { action: 'block', rule: 'block.max_daily_budget' } })
  })

  it('a campaign created under the limit runs; raising it over the limit is blocked on REST and MCP', async () => {
    await setPolicy({ hold: [], limits: { max_daily_budget: 500 } })
    const created = await dispatch('base', 'google_ads_create_search_campaign', searchArgs(400))
    expect(created).toMatchObject({ status: 200, body: { success: true, daily_budget: 400 } })
    const id = created.body.campaign_id as string
    expect(await sb.api('PATCH', `/v1/campaigns/${id}/budget`, { key: KEYS.owner, body: { daily_budget: 600 } })).toMatchObject({ status: 403, body: { rule: 'block.max_daily_budget' } })
    expect(toAnswer(await callTool(mcp, 'update_campaign_budget', { campaign_id: id, daily_budget: 5000 }))).toMatchObject({ status: 403, body: { status: 'blocked' } })
    expect(await campaign(id)).toMatchObject({ daily_budget: 400 })
  })

  it('the increase limits apply to raises, not to a new campaign; creating small then raising past them is blocked or held', async () => {
    await setPolicy({ hold: [], limits: { max_budget_increase_pct: 50 }, hold_budget_increase_pct: 20 })
    const created = await dispatch('base', 'google_ads_create_search_campaign', searchArgs(100))
    expect(created.body).toMatchObject({ success: true, daily_budget: 100 })
    const id = created.body.campaign_id as string
    const raise = (to: number) => sb.api('PATCH', `/v1/campaigns/${id}/budget`, { key: KEYS.owner, body: { daily_budget: to } })
    expect(await raise(200)).toMatchObject({ status: 403, body: { rule: 'block.max_budget_increase_pct' } })
    expect(await raise(140)).toMatchObject({ status: 202, body: { status: 'pending_review' } })
    expect(await raise(110)).toMatchObject({ status: 200 })
  })
})
