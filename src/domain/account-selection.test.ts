import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Caller } from './access.js'
import { authenticate } from './access.js'
import { dispatch, outcomeBody } from './dispatcher.js'
import { SandboxError } from './errors.js'
import { DATE_PRESETS, presetRange } from './date-presets.js'

const OWNER = 'svc_test_ownerAcme00000000000000000000000'
const SECOND = `
  - id: conn_google_acme_eu
    workspace: ws_acme
    platform: google
    account_id: '987-654-3210'
    account_name: Acme Outdoor EU - Google Ads
    currency: EUR
    campaigns: { count: 3 }
`

let dir: string
let sb: Sandbox
let owner: Caller
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'two-accounts-'))
  const world = join(dir, 'two-accounts.yaml')
  // The default world's connections list is its last key: a second account in the same workspace.
  await writeFile(world, `${await readFile('fixtures/worlds/default.yaml', 'utf8')}${SECOND}`)
  sb = await buildSandbox({ world })
  owner = authenticate(sb.ctx.deps, OWNER)
})
afterAll(async () => {
  await sb.close()
  await rm(dir, { recursive: true, force: true })
})

const deps = () => sb.ctx.deps
const run = (script: string, args: string[]) => outcomeBody(dispatch(deps(), owner, { script_name: script, args, platform: 'google', surface: 'rest' }))
const refusal = (script: string, args: string[]) => {
  try {
    run(script, args)
  } catch (error) {
    return error as SandboxError
  }
  throw new Error('not refused')
}
const campaignOf = (connection: string) => deps().store.campaigns.find((c) => c.connection_id === connection && c.status === 'ENABLED')!.id

describe('account selection on a workspace with two accounts (issue 35)', () => {
  it.each([
    ['list_campaigns', []], ['google_ads_list_campaigns', []], ['pull_google_ads', ['--days', '7']], ['get_account_daily_spend', []],
  ])('%s without account_id or account_name asks which account: 400 ACCOUNT_SELECTION_REQUIRED listing both, nothing charged', (script, args) => {
    const before = deps().store.snapshot()
    const error = refusal(script, args as string[])
    expect(error).toMatchObject({ status: 400, code: 'ACCOUNT_SELECTION_REQUIRED' })
    expect(error.message).toContain('ask the user which one')
    expect(error.toBody().accounts).toEqual([
      { account_id: '123-456-7890', account_name: 'Acme Outdoor - Google Ads' },
      { account_id: '987-654-3210', account_name: 'Acme Outdoor EU - Google Ads' },
    ])
    expect(deps().store.snapshot().ledger).toEqual(before.ledger)
  })

  it('lists only the selected account\'s campaigns, by id (dashes optional) or by name (any case)', () => {
    const eu = deps().store.campaigns.filter((c) => c.connection_id === 'conn_google_acme_eu').map((c) => c.id).sort()
    for (const args of [['--account-id', '987-654-3210'], ['--account-id', '9876543210'], ['--account-name', 'acme outdoor eu - google ads']]) {
      const body = run('list_campaigns', args) as { campaigns: Array<{ campaign_id: string }>; total_campaigns: number }
      expect(body.campaigns.map((c) => c.campaign_id).sort()).toEqual(eu)
      expect(body.total_campaigns).toBe(3)
    }
    expect(refusal('list_campaigns', ['--account-id', '987-654-3210', '--account-name', 'Acme Outdoor - Google Ads'])).toMatchObject({ status: 404 })
  })

  it('reports performance for the selected account, at campaign or account level', () => {
    const byCampaign = run('pull_google_ads', ['--account-name', 'Acme Outdoor EU - Google Ads', '--date-range', 'last_30_days']) as Record<string, any>
    expect(byCampaign).toMatchObject({ account_id: '987-654-3210', level: 'campaign', date_range: { days: 30 } })
    expect(byCampaign.campaigns).toHaveLength(3)
    const byAccount = run('pull_google_ads', ['--account-id', '987-654-3210', '--date-range', 'LAST_30_DAYS', '--level', 'account']) as Record<string, any>
    expect(byAccount.campaigns).toEqual([expect.objectContaining({ account_id: '987-654-3210', cost: byCampaign.summary.cost })])
  })

  it('a campaign id names its own account: pause needs no selection, and a selection of the other account is 404 (nothing changes)', () => {
    const id = campaignOf('conn_google_acme')
    expect(refusal('pause_campaign', ['--campaign-id', id, '--account-id', '987-654-3210'])).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(deps().store.campaigns.get(id)?.status).toBe('ENABLED')
    expect(run('pause_campaign', ['--campaign-id', id, '--account-id', '123-456-7890'])).toMatchObject({ status: 'PAUSED' })
    const other = campaignOf('conn_google_acme_eu')
    expect(run('update_campaign_budget', ['--campaign-id', other, '--daily-budget', '40'])).toMatchObject({ new_daily_budget: 40 })
  })
})

describe('date_range presets', () => {
  const now = Date.parse('2026-05-14T15:00:00Z') // a Thursday
  it.each([
    ['today', '2026-05-14', '2026-05-14'], ['yesterday', '2026-05-13', '2026-05-13'], ['last_7_days', '2026-05-08', '2026-05-14'],
    ['this_week', '2026-05-11', '2026-05-14'], ['last_week', '2026-05-04', '2026-05-10'], ['this_month', '2026-05-01', '2026-05-14'],
    ['last_month', '2026-04-01', '2026-04-30'], ['this_quarter', '2026-04-01', '2026-05-14'], ['last_quarter', '2026-01-01', '2026-03-31'],
    ['this_year', '2026-01-01', '2026-05-14'], ['last_year', '2025-01-01', '2025-12-31'], ['last_3_years', '2023-05-16', '2026-05-14'],
  ] as const)('%s is %s to %s', (preset, start_date, end_date) => {
    expect(presetRange(preset, now)).toEqual({ start_date, end_date })
  })

  it('every preset is a window of 1 to 1095 days ending no later than today, in January too', () => {
    for (const at of [now, Date.parse('2026-01-02T00:00:00Z')]) {
      for (const preset of DATE_PRESETS) {
        const { start_date, end_date } = presetRange(preset, at)
        const days = (Date.parse(end_date) - Date.parse(start_date)) / 86_400_000 + 1
        expect(days, preset).toBeGreaterThanOrEqual(1)
        expect(days, preset).toBeLessThanOrEqual(1095)
        expect(end_date <= new Date(at).toISOString().slice(0, 10), preset).toBe(true)
      }
    }
  })
})
