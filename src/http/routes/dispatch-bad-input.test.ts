import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEYS, startSandbox } from '../../test-support/http.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())

const junk: unknown[] = [
  'not json', '[]', 'null', '42', '"text"', {}, { script_name: null }, { script_name: 5 }, { script_name: '' },
  { script_name: 'pull_google_ads', args: null }, { script_name: 'pull_google_ads', args: [null] }, { script_name: 'pull_google_ads', args: [{}] },
  { script_name: 'pull_google_ads', args: ['--days'] }, { script_name: 'pull_google_ads', args: ['--days', '99999999999999999999'] },
  { script_name: 'pull_google_ads', args: ['--start-date', '2026-01-10', '--end-date', '2020-01-01'] },
  { script_name: 'pull_google_ads', args: ['--days', '3', '--start-date', '2026-01-01'] },
  { script_name: 'pull_google_ads', args: ['--', '--='] }, { script_name: 'pull_google_ads', platform: 7 },
  { script_name: 'list_campaigns', platform: '  ' }, { script_name: '__proto__' }, { script_name: 'constructor' },
  { script_name: 'update_campaign_budget', platform: 'google', args: ['--campaign-id', '--daily-budget', '5'] },
  { script_name: 'update_campaign_budget', platform: 'google', args: ['--campaign-id=1', '--daily-budget=NaN'] },
  { script_name: 'update_campaign_budget', platform: 'google', args: ['--campaign-id', '1', '--daily-budget', 'Infinity'] },
  { script_name: 'google_ads_create_customer_match', args: ['--name', 'x', '--hashed-emails', 'plain@mail.test'] },
]

describe('bad input on the dispatcher and campaign endpoints', () => {
  it.each(junk.map((j) => [JSON.stringify(j), j]))('POST /api/v1/tools/run %s is a JSON 4xx, never a 5xx', async (_label, body) => {
    const res = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(typeof res.body.error).toBe('string')
    expect(typeof res.body.code).toBe('string')
  })

  it.each([
    ['GET', '/v1/campaigns?page=-1'], ['GET', '/v1/campaigns?limit=abc'], ['GET', '/v1/campaigns/x/metrics?days=0'],
    ['GET', '/v1/campaigns/x/metrics?start_date=yesterday'], ['PATCH', '/v1/campaigns/x/budget'], ['POST', '/v1/campaigns/x/pause'],
    ['POST', '/artifacts/audience-sync-input'], ['GET', '/v1/campaigns/%E0%A4%A/metrics'],
  ])('%s %s is a JSON 4xx, never a 5xx', async (method, path) => {
    const res = await sb.api(method, path, { key: KEYS.owner, headers: { 'x-service-key': KEYS.owner } })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
})
