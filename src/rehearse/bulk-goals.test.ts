import { describe, expect, it } from 'vitest'
import { campaignSelector, expectedBudget, selectCampaigns } from './selectors.js'

// What the bulk goals of the suite rely on: a CPA range in a group's filter, and a capped raise.
describe('bulk goals', () => {
  const row = (id: string, cpa: number, conversions = 10) => ({ campaign_id: id, status: 'ENABLED', daily_budget: 100, conversions, cpa, ctr: 0, cost: 0 })
  const rows = [row('1', 29.99), row('2', 30.01), row('3', 47), row('4', 0, 0)]

  it('a group with a CPA range keeps the campaigns with conversions inside it', () => {
    const over = campaignSelector.parse({ where: { status: 'ENABLED', cpa: { min: 30.01 } }, pick: 'all' })
    expect(selectCampaigns(over, rows, new Map()).map((r) => r.campaign_id)).toEqual(['2', '3'])
    const under = campaignSelector.parse({ where: { cpa: { max: 30 } }, pick: 'all' })
    expect(selectCampaigns(under, rows, new Map()).map((r) => r.campaign_id)).toEqual(['1'])
  })

  it.each([
    ['below the cap: start × 1.5', 100, 150],
    ['crossing the cap: the cap', 190, 250],
    ['at the cap: unchanged', 250, 250],
    ['over the cap: unchanged, never lowered', 295, 295],
    ['to the cent', 33.33, 50],
  ])('a capped raise (× 1.5, at most 250), %s', (_what, start, expected) => {
    expect(expectedBudget({ times: 1.5, max: 250 }, start)).toBe(expected)
  })

  it('a cut with a cap is the cut', () => {
    expect(expectedBudget({ times: 0.8, max: 50 }, 100)).toBe(80)
  })
})
