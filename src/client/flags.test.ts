import { describe, expect, it } from 'vitest'
import { daysOf, toFlags } from './flags.js'

describe('args map → flags (SDK-01)', () => {
  it.each([
    [{ campaign_id: 'c1', daily_budget: 25 }, ['--campaign-id', 'c1', '--daily-budget', '25']],
    [{ daily_budget: 25, campaign_id: 'c1' }, ['--daily-budget', '25', '--campaign-id', 'c1']],
    [{ include_removed_campaigns: true }, ['--include-removed-campaigns']],
    [{ dry_run: false, note: null, limit: undefined }, []],
    [{ keyword: ['shoes', 'red shoes'], match_type: 'PHRASE' }, ['--keyword', 'shoes', '--keyword', 'red shoes', '--match-type', 'PHRASE']],
    [{ days: 0 }, ['--days', '0']],
    [{ already_kebab: 'x', 'already-kebab': 'y' }, ['--already-kebab', 'x', '--already-kebab', 'y']],
  ])('%j → %j', (args, flags) => {
    expect(toFlags(args)).toEqual(flags)
  })
})

describe('date range → --days (SDK-06)', () => {
  it.each([
    ['LAST_7_DAYS', 7],
    ['LAST_30_DAYS', 30],
    ['last_14_days', 14],
    ['TODAY', 1],
    ['YESTERDAY', 1],
    [7, 7],
    ['LAST_0_DAYS', null],
    ['THIS_MONTH', null],
    [0, null],
    [1.5, null],
  ])('%j → %j', (range, days) => {
    expect(daysOf(range)).toBe(days)
  })
})
