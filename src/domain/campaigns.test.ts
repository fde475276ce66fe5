import { describe, expect, it } from 'vitest'
import type { Campaign } from './model.js'
import type { Deps } from './ports.js'
import { openStore } from '../store/lowdb-store.js'
import { sequentialIds } from '../runtime/ids.js'
import { changeBudget } from './campaigns.js'
import { DAY_MS, metricsRange } from './metrics.js'

const T0 = Date.parse('2026-03-01T00:00:00.000Z')

async function depsAt(clock: { now: number }): Promise<Deps> {
  return { store: await openStore(), clock: { now: () => clock.now }, ids: sequentialIds() }
}

function campaign(): Campaign {
  const at = new Date(T0 - 40 * DAY_MS).toISOString()
  return {
    id: '1234567890', workspace_id: 'ws', connection_id: 'c', platform: 'google', campaign_name: 'Test', channel_type: 'SEARCH',
    status: 'ENABLED', daily_budget: 100, currency: 'USD', bidding_strategy: 'MAXIMIZE_CONVERSIONS', created_at: at,
    status_history: [{ at, status: 'ENABLED' }], budget_history: [{ at, daily_budget: 100 }], seed: 99,
  }
}

describe('budget history', () => {
  it('keeps the last change of each day, so repeated changes do not grow it, and metrics are unchanged', async () => {
    const clock = { now: T0 + 9 * 3_600_000 }
    const deps = await depsAt(clock)
    let row = deps.store.campaigns.insert(campaign())
    const everyChange: Campaign['budget_history'] = [...row.budget_history]
    for (const [hour, budget] of [[9, 150], [10, 50], [23, 80], [24, 120], [25, 90]] as const) {
      clock.now = T0 + hour * 3_600_000
      row = changeBudget(deps, row, budget)
      everyChange.push({ at: new Date(clock.now).toISOString(), daily_budget: budget })
    }
    // Day 1: 9:00, 10:00, 23:00 collapse into 23:00; day 2: midnight is kept, 01:00 follows it.
    expect(row.budget_history.map((h) => [h.at.slice(5, 16), h.daily_budget])).toEqual([
      ['01-20T00:00', 100], ['03-01T23:00', 80], ['03-02T00:00', 120], ['03-02T01:00', 90],
    ])
    const now = T0 + 5 * DAY_MS
    expect(metricsRange(row, '2026-02-27', '2026-03-05', now)).toEqual(metricsRange({ ...row, budget_history: everyChange }, '2026-02-27', '2026-03-05', now))
  })
})
