import { describe, expect, it } from 'vitest'
import type { CampaignRow } from './selectors.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { campaignSelector, expectedBudget, expectedStatus, fillGoal, selectCampaign, selectCampaigns } from './selectors.js'
import { runRehearsal, trialSeed } from './rehearse-run.js'

const row = (id: string, status: string, daily_budget: number, m: Partial<CampaignRow> = {}): CampaignRow =>
  ({ campaign_id: id, status, daily_budget, conversions: 10, cpa: 20, ctr: 0.02, cost: 200, ...m })
const rows = [
  row('1', 'ENABLED', 300, { cpa: 30, ctr: 0.05 }),
  row('2', 'PAUSED', 250, { conversions: 0, cpa: 0 }),
  row('3', 'ENABLED', 150, { cpa: 55, ctr: 0.01 }),
  row('4', 'ENABLED', 90, { conversions: 0, cpa: 0, ctr: 0.001 }),
]
const names = new Map([['1', 'Alpha'], ['2', 'Beta'], ['3', 'Gamma'], ['4', 'Delta']])
const pick = (selector: unknown) => selectCampaign(campaignSelector.parse(selector), rows, names)?.campaign_id

describe('campaign selectors (seed-independent tasks)', () => {
  it.each([
    [{ id: '3' }, '3'],
    [{ name: 'Beta' }, '2'],
    [{ worst: 'cpa' }, '3'],
    [{ where: { status: 'ENABLED' } }, '1'],
    [{ where: { status: 'PAUSED' }, pick: 'highest_budget' }, '2'],
    [{ where: { status: 'ENABLED', daily_budget: { max: 200 } }, pick: 'highest_budget' }, '3'],
    [{ where: { status: 'ENABLED' }, pick: 'lowest_ctr' }, '4'],
    // CPA ranks only campaigns with conversions: 4 has none, so it is not the "best".
    [{ where: { status: 'ENABLED' }, pick: 'lowest_cpa' }, '1'],
    [{ where: { has_conversions: false }, pick: 'lowest_budget' }, '4'],
    [{ where: { daily_budget: { min: 400 } } }, undefined],
  ])('%j picks %s', (selector, expected) => {
    expect(pick(selector)).toBe(expected)
  })

  it('rejects an unknown pick', () => {
    expect(campaignSelector.safeParse({ where: {}, pick: 'best_vibes' }).success).toBe(false)
  })

  it('resolves relative expectations against the starting state', () => {
    expect(expectedBudget('unchanged', 85)).toBe(85)
    expect(expectedBudget({ times: 1.2 }, 85)).toBe(102)
    expect(expectedBudget(230, 85)).toBe(230)
    expect(expectedStatus('unchanged', 'PAUSED')).toBe('PAUSED')
    expect(expectedStatus('ENABLED', 'PAUSED')).toBe('ENABLED')
  })

  it('fills goal placeholders, a factor on the daily budget included', () => {
    const campaigns = { target: { id: '42', campaign_name: 'Spring', daily_budget: 85 } }
    expect(fillGoal('"{target.name}" (id {target.id}) from {target.daily_budget} to {target.daily_budget*1.2}; {target.id*2} {other.id}', campaigns))
      .toBe('"Spring" (id 42) from 85 to 102; {target.id*2} {other.id}')
  })

  it('gives every trial after the first a seed of its own, the same on every run', () => {
    expect(trialSeed(undefined)).toBeUndefined()
    expect(trialSeed(1)).toBeUndefined()
    const seeds = [2, 3, 4].map(trialSeed)
    expect(new Set(seeds).size).toBe(3)
    expect([2, 3, 4].map(trialSeed)).toEqual(seeds)
  })

  it('a group (`pick: all`) is every matching campaign; the goal can list them', () => {
    const group = campaignSelector.parse({ where: { status: 'ENABLED', daily_budget: { max: 200 } }, pick: 'all' })
    expect(selectCampaigns(group, rows, names).map((r) => r.campaign_id)).toEqual(['3', '4'])
    const campaigns = { 'small.1': { id: '3', campaign_name: 'Gamma', daily_budget: 150 }, 'small.2': { id: '4', campaign_name: 'Delta', daily_budget: 90 } }
    expect(fillGoal('Pause {small.names} (ids {small.ids}): {small.count} campaigns.', campaigns, { small: ['small.1', 'small.2'] }))
      .toBe('Pause "Gamma", "Delta" (ids 3, 4): 2 campaigns.')
  })
})

describe('a group task, run', () => {
  it('checks every member of the group against its own starting state, on any seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rehearse-group-'))
    writeFileSync(join(dir, 'group.yaml'), [
      'name: pause-small-budgets',
      'goal: Pause every enabled campaign whose daily budget is at most 200 USD ({small.ids}).',
      'campaigns:',
      '  small: { where: { status: ENABLED, daily_budget: { max: 200 } }, pick: all }',
      'checks:',
      '  - { campaign: small, status: PAUSED }',
      '  - { campaign: small, daily_budget: unchanged }',
    ].join('\n'))
    // `true` does nothing: every member's status check fails, every budget check passes.
    const run = await runRehearsal([dir], { agent: 'true', trials: 2, jobs: 2, out: () => {}, err: () => {} })
    for (const t of run.report!.tasks) {
      expect(t.reasons.some((r) => r.startsWith('could not run'))).toBe(false)
      const status = t.checks.filter((c) => c.name.endsWith('status'))
      expect(status.length).toBeGreaterThan(0)
      expect(status.every((c) => !c.passed && c.expected === 'PAUSED' && c.actual === 'ENABLED')).toBe(true)
      expect(t.checks.filter((c) => c.name.endsWith('daily_budget')).every((c) => c.passed)).toBe(true)
      expect(status.map((c) => c.name)).toEqual(status.map((_, i) => expect.stringMatching(new RegExp(`^small\\.${i + 1} \\(\\d+\\) status$`))))
    }
    expect(run.report!.tasks[0].seed).not.toBe(run.report!.tasks[1].seed)
  })
})
