import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../create-sandbox.js'
import { createSandbox } from '../../create-sandbox.js'

const T0 = Date.parse('2026-11-23T12:00:00Z')
let sandbox: RunningSandbox
let keys: Record<string, string>
let campaign: { campaign_id: string; daily_budget: number; status: string }

beforeAll(async () => {
  sandbox = await createSandbox({ wall: () => T0 })
})
afterAll(async () => sandbox.close())
beforeEach(async () => {
  await sandbox.control.reset()
  keys = sandbox.keys
  campaign = (await call('GET', `${sandbox.apiUrl}/v1/campaigns?status=PAUSED`, keys.owner)).body.campaigns[0]
})

async function call(method: string, url: string, key: string | null, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key) headers.authorization = `Bearer ${key}`
  // The control plane is the person's: its calls carry the sandbox's admin token.
  if (url.startsWith(`${sandbox.baseUrl}/_sandbox/`)) headers['x-sandbox-admin'] = sandbox.adminToken ?? ''
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}
const run = (script_name: string, args: string[], extra: Record<string, unknown> = {}) =>
  call('POST', `${sandbox.baseUrl}/api/v1/tools/run`, keys.agent, { script_name, args, platform: 'google', ...extra })
const setPolicy = (policy: unknown) => call('PUT', `${sandbox.baseUrl}/_sandbox/workspaces/ws_acme/policy`, null, policy)
const budgetArgs = (amount: number) => ['--campaign-id', campaign.campaign_id, '--daily-budget', String(amount)]
const pending = async () => (await sandbox.control.audit({ status: 'pending_review' })).entries

describe('PUT /_sandbox/workspaces/{id}/policy', () => {
  it('replaces the policy; fields left out take the default (GATE-03)', async () => {
    const res = await setPolicy({ block_tools: ['remove_campaign'] })
    expect(res).toMatchObject({ status: 200, body: { workspace_id: 'ws_acme', policy: { block_tools: ['remove_campaign'], hold: ['enable', 'remove', 'creative', 'create'], review_ttl_hours: 72 } } })
    expect((await call('GET', `${sandbox.baseUrl}/_sandbox/workspaces/ws_acme/policy`, null)).body.policy.block_tools).toEqual(['remove_campaign'])
  })

  it.each([
    ['an unknown time zone', { operating_hours: { timezone: 'Mars/Olympus', days: ['mon'], start: '09:00', end: '17:00' } }, 'operating_hours.timezone'],
    ['a bad time', { operating_hours: { timezone: 'UTC', days: ['mon'], start: '9am', end: '17:00' } }, 'operating_hours.start'],
    ['an unknown operation', { hold: ['launch'] }, 'hold.0'],
    ['an unknown field', { hodl: [] }, 'hodl'],
    ['a negative limit', { limits: { max_daily_budget: -1, max_budget_increase_pct: null } }, 'limits.max_daily_budget'],
  ])('refuses %s with 400 naming the field, and changes nothing', async (_label, body, field) => {
    const res = await setPolicy(body)
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', field } })
    expect((await call('GET', `${sandbox.baseUrl}/_sandbox/workspaces/ws_acme/policy`, null)).body.policy.hold).toEqual(['enable', 'remove', 'creative', 'create'])
  })

  it('one monetary limit can be set without the other', async () => {
    const res = await setPolicy({ limits: { max_daily_budget: 500 } })
    expect(res.body.policy.limits).toEqual({ max_daily_budget: 500, max_budget_increase_pct: null })
  })

  it('an unknown workspace is 404', async () => {
    expect((await call('PUT', `${sandbox.baseUrl}/_sandbox/workspaces/ws_nope/policy`, null, {})).status).toBe(404)
  })
})

describe('operating hours over sandbox time (GATE-02)', () => {
  it.each([
    ['2026-11-23T13:59:00Z', 403, '08:59'],
    ['2026-11-23T14:00:00Z', 200, '09:00'],
    ['2026-11-23T21:59:00Z', 200, '16:59'],
    ['2026-11-23T22:00:00Z', 403, '17:00'],
    ['2026-11-28T17:00:00Z', 403, '12:00'],
  ])('a budget change at %s (New York %s) answers %i', async (at, status, local) => {
    await setPolicy({ operating_hours: { timezone: 'America/New_York', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' } })
    await sandbox.control.setClock(at)
    const res = await run('update_campaign_budget', budgetArgs(campaign.daily_budget - 1))
    expect(res.status).toBe(status)
    const entry = (await sandbox.control.audit({ limit: 1 })).entries[0]
    expect(entry).toMatchObject({ explanation: { hours: { timezone: 'America/New_York', local_time: local, within: status === 200, evaluated_at: new Date(at).toISOString() } } })
    if (status === 403) expect(res.body).toMatchObject({ status: 'blocked', code: 'POLICY_BLOCKED', rule: 'block.operating_hours', explanation: { hours: { local_time: local } } })
  })
})

describe('monetary limits and the hold threshold over HTTP', () => {
  it.each([
    ['at the max daily budget', { limits: { max_daily_budget: 300, max_budget_increase_pct: null } }, 300, 200, 'default.run'],
    ['over the max daily budget', { limits: { max_daily_budget: 300, max_budget_increase_pct: null } }, 300.5, 403, 'block.max_daily_budget'],
    ['over the max increase', { limits: { max_daily_budget: null, max_budget_increase_pct: 100 } }, 'double+1', 403, 'block.max_budget_increase_pct'],
    ['over the hold threshold', { hold_budget_increase_pct: 20 }, 'double', 202, 'hold.budget_increase_pct'],
    ['a decrease under every limit', { hold_budget_increase_pct: 1, limits: { max_daily_budget: 10_000, max_budget_increase_pct: 1 } }, 'half', 200, 'default.run'],
  ])('a budget %s → %i (%s)', async (_label, policy, amount, status, rule) => {
    await setPolicy(policy)
    const b = campaign.daily_budget
    const proposed = amount === 'double' ? b * 2 : amount === 'double+1' ? b * 2 + 1 : amount === 'half' ? b / 2 : (amount as number)
    const res = await run('update_campaign_budget', budgetArgs(proposed))
    expect(res.status).toBe(status)
    expect((await sandbox.control.audit({ limit: 1 })).entries[0]).toMatchObject({ rule })
  })

  it('PATCH /v1/campaigns/{id}/budget goes through the same gate (REST-02)', async () => {
    await setPolicy({ limits: { max_daily_budget: 300, max_budget_increase_pct: null } })
    const res = await call('PATCH', `${sandbox.apiUrl}/v1/campaigns/${campaign.campaign_id}/budget`, keys.agent, { daily_budget: 301 })
    expect(res).toMatchObject({ status: 403, body: { status: 'blocked', rule: 'block.max_daily_budget', explanation: { limit: { name: 'max_daily_budget', limit: 300, proposed: 301 } } } })
  })
})

describe('retrying a pending write', () => {
  it('returns the same audit_id while it is pending, and a new one once it is decided', async () => {
    const first = await run('enable_campaign', ['--campaign-id', campaign.campaign_id])
    const again = await run('enable_campaign', ['--campaign-id', campaign.campaign_id])
    expect(again).toMatchObject({ status: 202, body: { audit_id: first.body.audit_id } })
    expect(await pending()).toHaveLength(1)
    await sandbox.control.reject(first.body.audit_id, 'Rey')
    const after = await run('enable_campaign', ['--campaign-id', campaign.campaign_id])
    expect(after.body.audit_id).not.toBe(first.body.audit_id)
  })

  it('a different write, or the same write from another key, is queued separately', async () => {
    const a = await run('enable_campaign', ['--campaign-id', campaign.campaign_id])
    const other = (await call('GET', `${sandbox.apiUrl}/v1/campaigns?status=PAUSED`, keys.owner)).body.campaigns[1].campaign_id
    const b = await run('enable_campaign', ['--campaign-id', other])
    const c = await call('POST', `${sandbox.baseUrl}/api/v1/tools/run`, keys.owner, { script_name: 'enable_campaign', args: ['--campaign-id', campaign.campaign_id], platform: 'google' })
    expect(new Set([a.body.audit_id, b.body.audit_id, c.body.audit_id]).size).toBe(3)
  })
})

describe('dry run', () => {
  it.each([
    ['--dry-run in the args', ['--dry-run'], {}],
    ['--dry-run true in the args', ['--dry-run', 'true'], {}],
    ['dry_run: true in the body', [], { dry_run: true }],
  ])('%s returns the decision and cost without holding, charging or running', async (_label, flag, extra) => {
    const before = (await call('GET', `${sandbox.apiUrl}/v1/credits`, keys.owner)).body.balance
    const res = await run('enable_campaign', ['--campaign-id', campaign.campaign_id, ...flag], extra)
    expect(res).toMatchObject({ status: 200, body: { status: 'dry_run', would: 'hold', decision: { rule: 'hold.operation' }, credits: { cost: expect.any(Number), sufficient: true }, credits_used: 0 } })
    expect(res.body.args).toEqual(['--campaign-id', campaign.campaign_id])
    expect(await pending()).toHaveLength(0)
    expect((await call('GET', `${sandbox.apiUrl}/v1/credits`, keys.owner)).body.balance).toBe(before)
    const now = (await call('GET', `${sandbox.apiUrl}/v1/campaigns?status=PAUSED`, keys.owner)).body.campaigns.map((c: { campaign_id: string }) => c.campaign_id)
    expect(now).toContain(campaign.campaign_id)
  })

  it('reports a block as what would happen, with 200', async () => {
    await setPolicy({ block_tools: ['update_campaign_budget'] })
    const res = await run('update_campaign_budget', [...budgetArgs(10), '--dry-run'])
    expect(res).toMatchObject({ status: 200, body: { status: 'dry_run', would: 'block', decision: { rule: 'block.tool' } } })
    expect((await sandbox.control.audit({ status: 'dry_run' })).total).toBe(1)
  })

  it('--dry-run false runs the write', async () => {
    const res = await run('update_campaign_budget', [...budgetArgs(10), '--dry-run', 'false'])
    expect(res.status).toBe(200)
    expect(res.body.new_daily_budget).toBe(10)
  })

  it('dry_run: true on PATCH /v1/campaigns/{id}/budget decides without changing the budget', async () => {
    const res = await call('PATCH', `${sandbox.apiUrl}/v1/campaigns/${campaign.campaign_id}/budget`, keys.agent, { daily_budget: 42, dry_run: true })
    expect(res).toMatchObject({ status: 200, body: { status: 'dry_run', would: 'run' } })
    const after = (await call('GET', `${sandbox.apiUrl}/v1/campaigns?status=PAUSED`, keys.owner)).body.campaigns[0]
    expect(after.daily_budget).toBe(campaign.daily_budget)
  })

  it('a read script does not accept --dry-run (400 UNRECOGNIZED_ARGS)', async () => {
    expect((await run('list_campaigns', ['--dry-run'])).body.code).toBe('UNRECOGNIZED_ARGS')
  })
})

describe('outbox', () => {
  it('lists e-mails, filterable by recipient', async () => {
    await call('POST', `${sandbox.baseUrl}/api/v1/connections/request`, keys.agent, { platform: 'google' })
    expect((await sandbox.control.outbox({ to: 'olivia@acme.test' })).mails).toHaveLength(1)
    expect((await sandbox.control.outbox({ to: 'nobody@acme.test' })).mails).toHaveLength(0)
  })
})
