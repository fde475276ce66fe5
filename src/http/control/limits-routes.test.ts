import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEYS, campaignsByStatus, startSandbox } from '../../test-support/http.js'

let sb: TestSandbox
let enabled: string
let paused: string

beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())
beforeEach(async () => {
  await sb.control.reset('default')
  await sb.control.freezeClock()
  ;({ enabled, paused } = await campaignsByStatus(sb))
})

const run = (script_name: string, args: string[], key: string = KEYS.owner) =>
  sb.base('POST', '/api/v1/tools/run', { key, body: { script_name, args, platform: 'google' } })
const credits = async (key: string = KEYS.owner) => (await sb.api('GET', '/v1/credits', { key })).body
const setCredits = (body: unknown) => sb.base('PUT', '/_sandbox/workspaces/ws_acme/credits', { body })
const setLimits = (body: unknown) => sb.base('PUT', '/_sandbox/workspaces/ws_acme/rate-limits', { body })

describe('credits ledger (ERR-02, ERR-05, REST-03)', () => {
  it.each([
    ['a read is charged its cost', 'pull_google_ads', () => ['--days', '3'], 200, -2, ['charge']],
    ['an executed write is charged up front', 'update_campaign_budget', () => ['--campaign-id', enabled, '--daily-budget', '12'], 200, -5, ['charge']],
    ['a failed write is refunded', 'pause_campaign', () => ['--campaign-id', paused], 409, 0, ['charge', 'refund']],
    ['a 400 costs nothing', 'update_campaign_budget', () => ['--campaign-id', enabled, '--budget', '12'], 400, 0, []],
    ['an unknown script costs nothing', 'pull_google_ads_performance', () => [], 400, 0, []],
    ['an unknown campaign costs nothing', 'pause_campaign', () => ['--campaign-id', '42'], 404, 0, []],
    ['a held write is not charged', 'enable_campaign', () => ['--campaign-id', paused], 202, 0, []],
  ])('%s', async (_name, script, args, status, delta, reasons) => {
    const before = await credits()
    const res = await run(script, args())
    expect(res.status).toBe(status)
    const after = await credits()
    expect(after.balance).toBe(before.balance + delta)
    expect(after.ledger.slice(0, reasons.length).map((l: { reason: string }) => l.reason).reverse()).toEqual(reasons)
    expect(after.ledger.length).toBe(before.ledger.length + reasons.length)
  })

  it('/v1/credits shows balance, payment method, this key\'s spend and ledger lines naming key, script and audit', async () => {
    await run('update_campaign_budget', ['--campaign-id', enabled, '--daily-budget', '12'])
    await run('pull_google_ads', [], KEYS.reporting)
    const body = await credits()
    expect(body).toMatchObject({ workspace_id: 'ws_acme', balance: 993, payment_method: true, currency: 'credits', used_by_key: 5, sandbox: true })
    expect(body.ledger[1]).toMatchObject({ reason: 'charge', amount: -5, script: 'update_campaign_budget', balance_after: 995, audit_id: expect.any(String) })
    expect((await credits(KEYS.reporting)).used_by_key).toBe(2)
  })

  it('402 INSUFFICIENT_CREDITS when the balance is short: nothing runs, nothing is charged', async () => {
    await setCredits({ balance: 4 })
    const res = await run('update_campaign_budget', ['--campaign-id', enabled, '--daily-budget', '12'])
    expect(res.status).toBe(402)
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', needed: 5, balance: 4 })
    expect((await credits()).balance).toBe(4)
    const campaign = (await sb.api('GET', `/v1/campaigns/${enabled}`, { key: KEYS.owner })).body
    expect(campaign.daily_budget).not.toBe(12)
    // 4 credits pay for exactly two 2-credit reads.
    expect((await run('pull_google_ads', [])).status).toBe(200)
    expect((await run('pull_google_ads', [])).status).toBe(200)
    expect((await run('pull_google_ads', [])).body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', needed: 2, balance: 0 })
  })

  it('402 PAYMENT_METHOD_REQUIRED for launches without a payment method; other writes still run', async () => {
    await setCredits({ payment_method: false })
    await sb.base('PUT', '/_sandbox/workspaces/ws_acme/policy', { body: { hold: [] } })
    const launch = await run('enable_campaign', ['--campaign-id', paused])
    expect(launch.status).toBe(402)
    expect(launch.body).toMatchObject({ code: 'PAYMENT_METHOD_REQUIRED', operation: 'enable' })
    expect((await sb.api('GET', `/v1/campaigns/${paused}`, { key: KEYS.owner })).body.status).toBe('PAUSED')
    expect((await run('pause_campaign', ['--campaign-id', enabled])).status).toBe(200)
  })

  it('the control plane sets balance and payment method, recording an adjustment', async () => {
    const res = await setCredits({ balance: 50, payment_method: false })
    expect(res.body).toMatchObject({ balance: 50, payment_method: false })
    expect(res.body.ledger[0]).toMatchObject({ reason: 'adjustment', amount: -950, balance_after: 50 })
    expect((await setCredits({ balance: -1 })).status).toBe(400)
    expect((await setCredits({ balanse: 5 })).status).toBe(400)
    expect((await sb.base('PUT', '/_sandbox/workspaces/ws_nope/credits', { body: { balance: 5 } })).status).toBe(404)
  })
})

describe('rate limits (ERR-03, ERR-04)', () => {
  it('429 carries Retry-After in whole seconds and a retry exactly that much later succeeds', async () => {
    await setLimits({ per_key: { capacity: 2, refill_per_second: 0.25 } })
    expect((await run('pull_google_ads', [])).status).toBe(200)
    expect((await run('pull_google_ads', [])).status).toBe(200)
    const limited = await run('pull_google_ads', [])
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', scope: 'key', retry_after: 4 })
    expect(limited.headers.get('retry-after')).toBe('4')
    await sb.control.advanceClock('3s')
    const early = await run('pull_google_ads', [])
    expect(early.status).toBe(429)
    expect(early.headers.get('retry-after')).toBe('1')
    await sb.control.advanceClock('1s')
    expect((await run('pull_google_ads', [])).status).toBe(200)
  })

  it('a frozen clock never refills; a refused request takes no token and costs nothing', async () => {
    await setLimits({ per_key: { capacity: 1, refill_per_second: 10 } })
    expect((await run('pull_google_ads', [])).status).toBe(200)
    const balance = (await credits()).balance
    for (let i = 0; i < 3; i++) expect((await run('pull_google_ads', [])).status).toBe(429)
    expect((await credits()).balance).toBe(balance)
    await sb.control.advanceClock('100ms')
    expect((await run('pull_google_ads', [])).status).toBe(200)
  })

  it('limits apply per key and per workspace', async () => {
    await setLimits({ per_key: { capacity: 1, refill_per_second: 1 }, per_workspace: { capacity: 2, refill_per_second: 0.5 } })
    expect((await run('pull_google_ads', [], KEYS.owner)).status).toBe(200)
    expect((await run('pull_google_ads', [], KEYS.owner)).body).toMatchObject({ code: 'RATE_LIMITED', scope: 'key' })
    expect((await run('pull_google_ads', [], KEYS.reporting)).status).toBe(200)
    const workspace = await run('pull_google_ads', [], KEYS.agent)
    expect(workspace.body).toMatchObject({ code: 'RATE_LIMITED', scope: 'workspace', retry_after: 2 })
    expect((await sb.api('GET', '/v1/campaigns', { key: KEYS.agent })).status).toBe(429)
    expect((await sb.api('GET', '/v1/me', { key: KEYS.agent })).status).toBe(200)
    await sb.control.advanceClock('2s')
    expect((await run('pull_google_ads', [], KEYS.agent)).status).toBe(200)
  })

  it('is off by default and validates its configuration', async () => {
    for (let i = 0; i < 20; i++) expect((await run('google_ads_list_customers', [])).status).toBe(200)
    expect((await setLimits({ per_key: { capacity: 0, refill_per_second: 1 } })).status).toBe(400)
    expect((await setLimits({ per_key: null })).body).toMatchObject({ workspace_id: 'ws_acme', per_key: null, per_workspace: null })
  })
})

describe('the low-credit world', () => {
  it('starts with few credits, no payment method and rate limits on', async () => {
    await sb.control.reset('low-credit')
    await sb.control.freezeClock()
    const owner = 'svc_test_lowCreditOwner000000000000000000'
    expect(await credits(owner)).toMatchObject({ workspace_id: 'ws_pine', balance: 12, payment_method: false })
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await run('google_ads_list_customers', [], owner)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})
