import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEYS, startSandbox } from '../../test-support/http.js'
import { campaignListBody, parseListQuery } from './campaigns.js'
import { buildSandbox } from '../../sandbox.js'

let sb: TestSandbox
let enabled: string[]
let today: string

/** The date `n` days after today (sandbox time, frozen per test). */
const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())
beforeEach(async () => {
  await sb.control.reset('default')
  // Campaigns start 30-400 days before the reset; freeze there so every test sees the same instant.
  today = (await sb.control.freezeClock()).now.slice(0, 10)
  const list = (await sb.api('GET', '/v1/campaigns?status=enabled', { key: KEYS.owner })).body.campaigns
  enabled = list.map((c: { campaign_id: string }) => c.campaign_id)
})

const metrics = async (id: string) =>
  (await sb.api('GET', `/v1/campaigns/${id}/metrics?start_date=${today}&end_date=${day(5)}`, { key: KEYS.owner })).body

describe('campaigns REST', () => {
  it('REST-01: lists campaigns with status, name and paging filters; rows follow the campaign row shape', async () => {
    const all = await sb.api('GET', '/v1/campaigns', { key: KEYS.reporting })
    expect(all.status).toBe(200)
    expect(all.body).toMatchObject({ total: 8, page: 1, has_more: false, sandbox: true, date_range: { days: 30, end_date: today } })
    const row = all.body.campaigns[0]
    expect(row.ctr).toBeLessThan(1)
    expect(['ENABLED', 'PAUSED', 'REMOVED']).toContain(row.status)
    const page = await sb.api('GET', '/v1/campaigns?limit=3&page=2', { key: KEYS.owner })
    expect(page.body.campaigns.map((c: { campaign_id: string }) => c.campaign_id)).toEqual(all.body.campaigns.slice(3, 6).map((c: { campaign_id: string }) => c.campaign_id))
    const fragment = row.campaign_name.split(' ')[0].toLowerCase()
    const named = await sb.api('GET', `/v1/campaigns?name=${encodeURIComponent(fragment)}`, { key: KEYS.owner })
    expect(named.body.campaigns.every((c: { campaign_name: string }) => c.campaign_name.toLowerCase().includes(fragment))).toBe(true)
    expect((await sb.api('GET', '/v1/campaigns?status=RUNNING', { key: KEYS.owner })).status).toBe(400)
    expect((await sb.api('GET', '/v1/campaigns?platform=meta', { key: KEYS.owner })).body.code).toBe('UNSUPPORTED_PLATFORM')
  })

  it('generates the same campaigns for the same world seed', async () => {
    const first = (await sb.api('GET', '/v1/campaigns', { key: KEYS.owner })).body.campaigns.map((c: { campaign_name: string }) => c.campaign_name)
    await sb.control.reset('default')
    const second = (await sb.api('GET', '/v1/campaigns', { key: KEYS.owner })).body.campaigns.map((c: { campaign_name: string }) => c.campaign_name)
    expect(second).toEqual(first)
    await sb.control.reset('default', 43)
    const other = (await sb.api('GET', '/v1/campaigns', { key: KEYS.owner })).body.campaigns.map((c: { campaign_name: string }) => c.campaign_name)
    expect(other).not.toEqual(first)
  })

  it('REST-01: metrics accrue as the sandbox clock advances and stop while a campaign is paused', async () => {
    const [running, toPause] = enabled
    const before = await metrics(running)
    const paused = await sb.api('POST', `/v1/campaigns/${toPause}/pause`, { key: KEYS.owner })
    expect(paused.body).toMatchObject({ success: true, campaign: { id: toPause, status: 'PAUSED', previous_status: 'ENABLED', platform: 'GOOGLE' }, credits_used: 2 })
    await sb.control.advanceClock('3d')
    const after = await metrics(running)
    expect(after.totals.clicks).toBeGreaterThan(before.totals.clicks)
    expect(after.totals.cost).toBeGreaterThan(before.totals.cost)
    const days = (m: { daily: Array<{ date: string; clicks: number }> }) => Object.fromEntries(m.daily.map((d) => [d.date, d.clicks]))
    expect(days(after)[day(2)]).toBeGreaterThan(0)
    expect(days(after)[day(4)]).toBe(0)
    const stopped = await metrics(toPause)
    expect(stopped.daily.filter((d: { date: string }) => d.date > today).every((d: { clicks: number; cost: number }) => d.clicks === 0 && d.cost === 0)).toBe(true)
  })

  it('REST-02: a budget change applies from the next simulated day; bounds are 400 before anything changes', async () => {
    const id = enabled[0]
    const today = (await metrics(id)).daily[0]
    const res = await sb.api('PATCH', `/v1/campaigns/${id}/budget`, { key: KEYS.owner, body: { daily_budget: 1000 } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, campaign: { id, daily_budget: { current: 1000, currency: 'USD' } }, effective_from: day(1), credits_used: 5 })
    expect((await metrics(id)).daily[0]).toEqual(today)
    await sb.control.advanceClock('2d')
    const next = (await metrics(id)).daily.find((d: { date: string }) => d.date === day(1))
    expect(next.cost).toBeGreaterThan(res.body.campaign.daily_budget.previous)
    expect(next.cost).toBeLessThanOrEqual(1000)
    const state = await sb.stateText()
    for (const body of [{ daily_budget: 0.99 }, { daily_budget: 50_000.5 }, { daily_budget: '100' }, {}]) {
      const refused = await sb.api('PATCH', `/v1/campaigns/${id}/budget`, { key: KEYS.owner, body })
      expect(refused.status, JSON.stringify(body)).toBe(400)
    }
    expect((await sb.api('PATCH', `/v1/campaigns/${id}/budget`, { key: KEYS.owner, body: { daily_budget: 0.5 } })).body).toMatchObject({ code: 'INVALID_ARGS', flag: 'daily_budget' })
    expect(await sb.stateText()).toBe(state)
  })

  it('REST-02: pause and budget go through the same gate as the tools', async () => {
    await sb.base('PUT', '/_sandbox/workspaces/ws_acme/policy', { body: { hold: ['pause'] } })
    const held = await sb.api('POST', `/v1/campaigns/${enabled[0]}/pause`, { key: KEYS.owner })
    expect(held.status).toBe(202)
    expect(held.body).toMatchObject({ status: 'pending_review', script_name: 'pause_campaign', reviewed_args: ['--campaign-id', enabled[0]] })
    await sb.base('PUT', '/_sandbox/workspaces/ws_acme/policy', { body: { block_tools: ['update_campaign_budget'] } })
    const blocked = await sb.api('PATCH', `/v1/campaigns/${enabled[0]}/budget`, { key: KEYS.owner, body: { daily_budget: 20 } })
    expect(blocked.status).toBe(403)
    expect(blocked.body).toMatchObject({ status: 'blocked', code: 'POLICY_BLOCKED' })
  })

  it('pausing a paused campaign is 409 ALREADY_PAUSED, refunded; an unknown id is 404 and free', async () => {
    await sb.api('POST', `/v1/campaigns/${enabled[0]}/pause`, { key: KEYS.owner })
    const again = await sb.api('POST', `/v1/campaigns/${enabled[0]}/pause`, { key: KEYS.owner })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'ALREADY_PAUSED', refunded: 2 })
    const missing = await sb.api('POST', '/v1/campaigns/999/pause', { key: KEYS.owner })
    expect(missing.status).toBe(404)
    const credits = (await sb.api('GET', '/v1/credits', { key: KEYS.owner })).body
    expect(credits.balance).toBe(1000 - 2)
  })

  it('KEY-12: another workspace\'s campaign answers 404 exactly like a missing one', async () => {
    await sb.control.reset('multi-workspace')
    const theirs = (await sb.api('GET', '/v1/campaigns', { key: KEYS.alexClientB })).body.campaigns[0].campaign_id
    // One client request id for both, so the bodies' `request_id` cannot tell them apart either.
    const named = { key: KEYS.alexClientA, headers: { 'request-id': 'key-12' } }
    const foreign = await sb.api('GET', `/v1/campaigns/${theirs}/metrics`, named)
    const missing = await sb.api('GET', '/v1/campaigns/0000000000/metrics', named)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ ...missing.body, error: missing.body.error.replace('0000000000', theirs) })
    expect((await sb.api('POST', `/v1/campaigns/${theirs}/pause`, { key: KEYS.alexClientA })).status).toBe(404)
    expect((await sb.api('GET', '/v1/campaigns', { key: KEYS.alexClientB })).body.campaigns[0].currency).toBe('EUR')
  })
})

describe('campaign list body', () => {
  it('is the same frozen body from its second ask while nothing changed, and a new one after a change, another filter or time moving on', async () => {
    const built = await buildSandbox()
    try {
      const { deps, clock } = built.ctx
      clock.restore({ offset_ms: 0, frozen_at: clock.now() })
      const query = parseListQuery({})
      const asked = campaignListBody(deps, 'ws_acme', query)
      const first = campaignListBody(deps, 'ws_acme', query)
      expect(first).toEqual(asked)
      expect(Object.isFrozen(first) && Object.isFrozen(first.campaigns)).toBe(true)
      expect(campaignListBody(deps, 'ws_acme', query)).toBe(first)
      expect(campaignListBody(deps, 'ws_acme', parseListQuery({ limit: '2' }))).not.toBe(first)
      deps.store.campaigns.update(first.campaigns[0].campaign_id, { campaign_name: 'Renamed' })
      const renamed = campaignListBody(deps, 'ws_acme', query)
      expect(renamed).not.toBe(first)
      expect(renamed.campaigns[0].campaign_name).toBe('Renamed')
      clock.restore({ offset_ms: 0, frozen_at: clock.now() + 86_400_000 })
      expect(campaignListBody(deps, 'ws_acme', query).date_range.end_date).not.toBe(renamed.date_range.end_date)
    } finally {
      await built.close()
    }
  })
})

describe('one date parser on every surface (DISP-08, REST-01)', () => {
  const impossible = ['2026-02-30', '2025-02-29', '2026-04-31', '2026-02-32', '2026-13-01']

  it.each(impossible)('refuses %s on /v1/campaigns/{id}/metrics and in the dispatcher with a 400 naming the field', async (date) => {
    for (const query of [`start_date=${date}&end_date=${today}`, `end_date=${date}`]) {
      const rest = await sb.api('GET', `/v1/campaigns/${enabled[0]}/metrics?${query}`, { key: KEYS.owner })
      expect(rest).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', field: query.startsWith('start') ? 'start_date' : 'end_date' } })
    }
    const tool = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'pull_google_ads', args: ['--start-date', date] } })
    expect(tool).toMatchObject({ status: 400, body: { code: 'INVALID_ARGS', flag: '--start-date' } })
  })

  it('accepts a real leap day on both surfaces', async () => {
    const rest = await sb.api('GET', `/v1/campaigns/${enabled[0]}/metrics?start_date=2024-02-29&end_date=${today}`, { key: KEYS.owner })
    expect(rest).toMatchObject({ status: 200, body: { date_range: { start_date: '2024-02-29', end_date: today } } })
    const tool = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'pull_google_ads', args: ['--start-date', '2024-02-29'] } })
    expect(tool.status).toBe(200)
  })
})
