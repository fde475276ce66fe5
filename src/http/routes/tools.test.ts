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
  ;({ enabled, paused } = await campaignsByStatus(sb))
})

/** Dispatch with the owner key by default; `null` sends no key. */
const run = (body: unknown, key: string | null = KEYS.owner, host: 'base' | 'api' = 'base') => {
  const options = { key: key ?? undefined, body }
  return host === 'base' ? sb.base('POST', '/api/v1/tools/run', options) : sb.api('POST', '/v1/tools/run', options)
}

describe('dispatcher over HTTP', () => {
  it('DISP-01: runs a script on both hosts with ordered args, answering JSON with sandbox: true', async () => {
    for (const host of ['base', 'api'] as const) {
      const res = await run({ script_name: 'list_campaigns', args: ['--status', 'ENABLED'], platform: 'google' }, KEYS.owner, host)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ platform: 'google', sandbox: true, credits_used: 1 })
      expect(res.body.campaigns.every((c: { status: string }) => c.status === 'ENABLED')).toBe(true)
      expect(Object.keys(res.body.campaigns[0])).toEqual(expect.arrayContaining([
        'campaign_id', 'campaign_name', 'status', 'daily_budget', 'currency', 'impressions', 'clicks', 'conversions', 'cost', 'ctr', 'cpc', 'cpa', 'bidding_strategy',
      ]))
    }
  })

  it('AUTH-01: accepts Authorization, X-Service-Key and X-API-Key on the tools endpoint', async () => {
    for (const header of ['x-service-key', 'x-api-key']) {
      const res = await sb.base('POST', '/api/v1/tools/run', { headers: { [header]: KEYS.owner }, body: { script_name: 'pull_google_ads', args: [] } })
      expect(res.status, header).toBe(200)
    }
  })

  it('DISP-02: GET /api/v1/tools/run lists dispatchable script names only', async () => {
    const res = await sb.base('GET', '/api/v1/tools/run', { key: KEYS.reporting })
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(res.body.tools.length)
    expect(res.body.tools).toEqual(expect.arrayContaining(['pull_google_ads', 'list_campaigns', 'update_campaign_budget']))
    expect(res.body.tools).not.toContain('pull_google_ads_performance')
    expect(res.body.tools).not.toContain('list_landing_pages')
    expect([...res.body.tools].sort()).toEqual(res.body.tools)
  })

  it('DISP-03: GET /api/v1/tools searches and pages the catalog', async () => {
    const all = await sb.base('GET', '/api/v1/tools?limit=100', { key: KEYS.owner })
    expect(all.body).toMatchObject({ page: 1, limit: 100, has_more: false })
    expect(all.body.total).toBe(all.body.tools.length)
    const page1 = await sb.base('GET', '/api/v1/tools?limit=5', { key: KEYS.owner })
    const page2 = await sb.base('GET', '/api/v1/tools?limit=5&page=2', { key: KEYS.owner })
    expect(page1.body).toMatchObject({ total: all.body.total, page: 1, has_more: true })
    expect(page2.body.tools[0].name).toBe(all.body.tools[5].name)
    const search = await sb.base('GET', '/api/v1/tools?q=budget', { key: KEYS.owner })
    expect(search.body.tools.map((t: { name: string }) => t.name)).toContain('update_campaign_budget')
    const perf = (await sb.base('GET', '/api/v1/tools?q=pull_google_ads_performance', { key: KEYS.owner })).body.tools
    expect(perf).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'pull_google_ads_performance', executable: false })]))
    expect((await sb.base('GET', '/api/v1/tools?page=0', { key: KEYS.owner })).status).toBe(400)
    expect((await sb.base('GET', '/api/v1/tools', { key: KEYS.agent })).status).toBe(200)
  })

  it('DISP-04: pull_google_ads is canonical, pull_google_ads_data its alias, pull_google_ads_performance refused with a hint', async () => {
    const canonical = await run({ script_name: 'pull_google_ads', args: ['--days', '7'] })
    const alias = await run({ script_name: 'pull_google_ads_data', args: ['--days', '7'] })
    expect(canonical.status).toBe(200)
    expect(alias.status).toBe(200)
    expect(alias.body.summary).toEqual(canonical.body.summary)
    const mcp = await run({ script_name: 'pull_google_ads_performance', args: ['--days', '30'] })
    expect(mcp.status).toBe(400)
    expect(mcp.body).toMatchObject({ code: 'UNKNOWN_SCRIPT', script_name: 'pull_google_ads_performance', use_instead: 'pull_google_ads' })
    expect(mcp.body.hint).toContain('pull_google_ads')
    const unknown = await run({ script_name: 'make_me_rich', args: [] })
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_SCRIPT', script_name: 'make_me_rich' })
    expect(unknown.body.hint).toBeUndefined()
  })

  it('DISP-05, ERR-05: --budget is UNRECOGNIZED_ARGS before anything runs or is charged, even with a valid key', async () => {
    const before = await sb.stateText()
    const res = await run({ script_name: 'update_campaign_budget', args: ['--campaign-id', enabled, '--budget', '50'], platform: 'google' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'UNRECOGNIZED_ARGS', flags: ['--budget'] })
    expect(typeof res.body.error).toBe('string')
    expect(await sb.stateText()).toBe(before)
  })

  it('DISP-06: update_campaign_budget takes --campaign-id and --daily-budget and says previous and new', async () => {
    const res = await run({ script_name: 'update_campaign_budget', args: ['--campaign-id', enabled, '--daily-budget', '42.5'], platform: 'google' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ campaign_id: enabled, new_daily_budget: 42.5, daily_budget: { current: 42.5 }, credits_used: 5, sandbox: true })
    expect(res.body.daily_budget.previous).toBeTypeOf('number')
    for (const [value, flag] of [['0.5', '--daily-budget'], ['50001', '--daily-budget']]) {
      const bad = await run({ script_name: 'update_campaign_budget', args: ['--campaign-id', enabled, '--daily-budget', value], platform: 'google' })
      expect(bad.body).toMatchObject({ code: 'INVALID_ARGS', flag })
    }
  })

  it('DISP-07: list_campaigns takes --platform and --status; the platform is case-insensitive, only google', async () => {
    const res = await run({ script_name: 'list_campaigns', args: ['--platform', 'Google', '--status', 'PAUSED'] })
    expect(res.status).toBe(200)
    expect(res.body.campaigns.map((c: { status: string }) => c.status)).toEqual(res.body.campaigns.map(() => 'PAUSED'))
    for (const body of [
      { script_name: 'list_campaigns', args: [] },
      { script_name: 'list_campaigns', args: [], platform: 'meta' },
      { script_name: 'list_campaigns', args: ['--platform', 'snapchat'] },
      { script_name: 'pause_campaign', args: ['--campaign-id', enabled] },
    ]) {
      const refused = await run(body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.code).toBe('UNSUPPORTED_PLATFORM')
    }
  })

  it('DISP-08: the performance script takes --days <integer>', async () => {
    const res = await run({ script_name: 'pull_google_ads', args: ['--days', '14'] })
    expect(res.body.date_range.days).toBe(14)
    expect(res.body.daily).toHaveLength(14)
    expect((await run({ script_name: 'pull_google_ads', args: ['--days', '7.5'] })).body).toMatchObject({ code: 'INVALID_ARGS', flag: '--days' })
  })

  it('DISP-09: list_landing_pages and stage_audience_artifact are served outside the dispatcher', async () => {
    expect((await run({ script_name: 'list_landing_pages', args: [] })).body).toMatchObject({ code: 'UNKNOWN_SCRIPT' })
    const pages = await sb.base('GET', '/api/v1/landing-pages', { key: KEYS.owner })
    expect(pages.status).toBe(200)
    expect(pages.body.landing_pages[0]).toMatchObject({ page_id: expect.any(String), url: expect.stringMatching(/^https:\/\//), status: expect.any(String) })
    const hash = 'ab'.repeat(32)
    const staged = await sb.api('POST', '/artifacts/audience-sync-input', { headers: { 'x-service-key': KEYS.owner }, body: { body: [hash] } })
    expect(staged.status).toBe(201)
    expect(staged.body).toMatchObject({ record_count: 1, ttl_seconds: 3600, artifact_id: expect.any(String) })
    const bearer = await sb.api('POST', '/artifacts/audience-sync-input', { key: KEYS.owner, body: { body: [hash] } })
    expect(bearer.status).toBe(401)
    const raw = await sb.api('POST', '/artifacts/audience-sync-input', { headers: { 'x-service-key': KEYS.owner }, body: { body: ['olivia@acme.test'] } })
    expect(raw.body).toMatchObject({ code: 'INVALID_REQUEST', field: 'body.0' })
  })

  it('AUTH-04: a key without the script\'s scope gets 403 SCOPE_MISSING naming it, and nothing is charged', async () => {
    const before = await sb.stateText()
    const res = await run({ script_name: 'pause_campaign', args: ['--campaign-id', enabled], platform: 'google' }, KEYS.reporting)
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ code: 'SCOPE_MISSING', scope: 'campaigns:write' })
    expect(await sb.stateText()).toBe(before)
  })

  it('house order: without a key every body is 401; with one, a malformed body is 400 naming the field', async () => {
    const bodies: unknown[] = [{ args: [] }, { script_name: 'pull_google_ads', args: '--days 7' }, { script_name: 'nope_script', args: [] }, '{"script_name": ']
    for (const body of bodies) expect((await run(body, null)).body).toMatchObject({ code: 'AUTHENTICATION_REQUIRED' })
    expect((await run({ args: [] })).body).toMatchObject({ code: 'INVALID_REQUEST', field: 'script_name' })
    expect((await run({ script_name: 'pull_google_ads', args: '--days 7' })).body).toMatchObject({ code: 'INVALID_REQUEST', field: 'args' })
    expect((await run('{"script_name": ')).body).toMatchObject({ code: 'INVALID_REQUEST' })
  })

  it('house order: a key without the script\'s scope gets 403 before its args are validated', async () => {
    const refused = await run({ script_name: 'update_campaign_budget', args: ['--budget', '5'], platform: 'google' }, KEYS.reporting)
    expect(refused).toMatchObject({ status: 403, body: { code: 'SCOPE_MISSING', scope: 'budget:write' } })
  })
})

describe('writes through the gate (GATE-01..03 wiring)', () => {
  it('pause runs at once and is audited; pausing again is 409 ALREADY_PAUSED and refunded', async () => {
    const first = await run({ script_name: 'pause_campaign', args: ['--campaign-id', enabled], platform: 'google' })
    expect(first.body).toMatchObject({ status: 'PAUSED', previous_status: 'ENABLED', credits_used: 2, audit_id: expect.any(String) })
    const again = await run({ script_name: 'pause_campaign', args: ['--campaign-id', enabled], platform: 'google' })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'ALREADY_PAUSED', refunded: 2, credits_used: 0, audit_id: expect.any(String) })
  })

  it('enable is held: 202 pending_review with reviewed_args, nothing run, nothing charged', async () => {
    const credits = (await sb.api('GET', '/v1/credits', { key: KEYS.owner })).body.balance
    const args = ['--campaign-id', paused]
    const res = await run({ script_name: 'enable_campaign', args, platform: 'google' })
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({ status: 'pending_review', reviewed_args: args, script_name: 'enable_campaign', decision: { rule: expect.any(String) }, sandbox: true })
    expect((await sb.api('GET', '/v1/credits', { key: KEYS.owner })).body.balance).toBe(credits)
    expect((await sb.api('GET', `/v1/campaigns/${paused}`, { key: KEYS.owner })).body.status).toBe('PAUSED')
  })

  it('a blocked tool is 403 status blocked with POLICY_BLOCKED and the rule', async () => {
    await sb.base('PUT', '/_sandbox/workspaces/ws_acme/policy', { body: { block_tools: ['pause_campaign'] } })
    const res = await run({ script_name: 'pause_campaign', args: ['--campaign-id', enabled], platform: 'google' })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ status: 'blocked', code: 'POLICY_BLOCKED', audit_id: expect.any(String), rule: expect.any(String), reason: expect.any(String) })
    expect(typeof res.body.error).toBe('string')
  })
})
