import { describe, expect, it } from 'vitest'
import type { Campaign } from './model.js'
import { campaignRow } from './campaign-view.js'
import { DAY_MS } from './metrics.js'

const T0 = Date.parse('2026-03-01T00:00:00Z')
const at = (hours: number) => new Date(T0 + hours * 3_600_000).toISOString()

function campaign(seed: number): Campaign {
  return {
    id: `c${seed}`, workspace_id: 'ws', connection_id: 'c', platform: 'google', campaign_name: 'Test', channel_type: 'DISPLAY',
    status: 'ENABLED', daily_budget: 400, currency: 'USD', bidding_strategy: 'MAXIMIZE_CONVERSIONS', created_at: at(-24 * 40),
    status_history: [{ at: at(-24 * 40), status: 'ENABLED' }], budget_history: [{ at: at(-24 * 40), daily_budget: 400 }], seed,
  }
}

describe('campaign rows', () => {
  it('kept for reuse equal a freshly built row at every instant of a busy day', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const kept = campaign(seed)
      // Irregular steps over a day and a bit: reuse, rebuilds and the midnight rollover.
      for (let t = T0 + 3_600_000; t < T0 + DAY_MS + 7_200_000; t += 7_919 + (t % 13) * 1_000) {
        // A copy under another id shares no kept row, rates or ended days: built from scratch.
        expect(campaignRow(kept, t)).toEqual({ ...campaignRow({ ...kept, id: `fresh-${t}` }, t), campaign_id: kept.id })
      }
    }
  })

  it('are reused while metrics stand still, and rebuilt when the clock goes back or the campaign changes', () => {
    const c = campaign(9)
    const noon = T0 + 12 * 3_600_000
    const first = campaignRow(c, noon)
    expect(campaignRow(c, noon + 1)).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    expect(campaignRow(c, noon - 3_600_000)).not.toEqual(first)
    const paused = { ...c, status: 'PAUSED' as const }
    expect(campaignRow(paused, noon + 1)).toMatchObject({ status: 'PAUSED', clicks: first.clicks })
  })

  it('are never served to another version of the campaign, asked for in turns', () => {
    const c = campaign(5)
    const noon = T0 + 12 * 3_600_000
    const paused = { ...c, status: 'PAUSED' as const, status_history: [...c.status_history, { at: at(11), status: 'PAUSED' as const }] }
    for (let t = noon; t < noon + 5_000; t += 1_000) {
      expect(campaignRow(c, t)).toMatchObject({ status: 'ENABLED' })
      expect(campaignRow(paused, t)).toMatchObject({ status: 'PAUSED' })
    }
    expect(campaignRow(paused, noon).clicks).toBeLessThan(campaignRow(c, noon).clicks)
  })

  it('with another window are built on each call', () => {
    const c = campaign(3)
    expect(campaignRow(c, T0, 7)).not.toBe(campaignRow(c, T0, 7))
  })
})
