import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Campaign } from './model.js'
import type { Deps } from './ports.js'
import { openStore } from '../store/lowdb-store.js'
import { sequentialIds } from '../runtime/ids.js'
import { changeStatus } from './campaigns.js'
import { DAY_MS, enabledMs, metricsRange } from './metrics.js'
import { RECENT_STATUS_CHANGES, appendStatusChange, foldStatusHistory } from './status-history.js'

type Entry = Campaign['status_history'][number]

const T0 = Date.parse('2026-03-01T00:00:00.000Z')
const at = (ms: number) => new Date(ms).toISOString()

function campaignWith(history: Entry[]): Campaign {
  const created = history[0].at
  return {
    id: '1234567890', workspace_id: 'ws', connection_id: 'c', platform: 'google', campaign_name: 'Test', channel_type: 'SEARCH',
    status: history[history.length - 1].status, daily_budget: 100, currency: 'USD', bidding_strategy: 'MAXIMIZE_CONVERSIONS', created_at: created,
    status_history: history, budget_history: [{ at: created, daily_budget: 100 }], seed: 99,
  }
}

/** A history that alternates ENABLED and PAUSED at non-decreasing instants over a few days (same-millisecond changes included). */
const histories = fc.array(fc.integer({ min: 0, max: 6 * 3_600_000 }), { minLength: 1, maxLength: 120 }).map((gaps) => {
  let t = T0
  return gaps.map((gap, i): Entry => {
    t += gap
    return { at: at(t), status: i % 2 === 0 ? 'ENABLED' : 'PAUSED' }
  })
})

describe('status history folding', () => {
  it('keeps every day\'s ENABLED time, the last changes as made and the status after them, in at most three entries per earlier day', () => {
    fc.assert(fc.property(histories, fc.integer({ min: 0, max: 30 }), (history, keep) => {
      const folded = foldStatusHistory(history, keep)
      const before = campaignWith(history)
      const after = campaignWith(folded)
      const cut = Math.max(1, history.length - keep)
      expect(folded.slice(folded.length - (history.length - cut))).toEqual(history.slice(cut))
      const first = Math.floor(T0 / DAY_MS) * DAY_MS
      const last = Date.parse(history[history.length - 1].at) + 2 * DAY_MS
      const days = new Set(history.slice(1, cut).map((e) => Math.floor(Date.parse(e.at) / DAY_MS))).size
      expect(folded.length).toBeLessThanOrEqual(1 + 3 * days + (history.length - cut))
      for (let day = first; day < last; day += DAY_MS) expect(enabledMs(after, day, day + DAY_MS)).toBe(enabledMs(before, day, day + DAY_MS))
      // From the last folded change on, every window starting at a day boundary sees the same time enabled.
      const settled = Date.parse(history[cut - 1].at)
      for (const e of history.slice(cut - 1)) {
        const t = Date.parse(e.at)
        if (t < settled) continue
        const dayStart = Math.floor(t / DAY_MS) * DAY_MS
        for (const end of [t, t + 1, t + 3_600_000]) expect(enabledMs(after, dayStart, end)).toBe(enabledMs(before, dayStart, end))
      }
    }), { numRuns: 300 })
  })

  it('leaves a day whose changes are out of order (made after a clock rewind) as it was', () => {
    const history: Entry[] = [at(T0), at(T0 + 5_000), at(T0 + 1_000), at(T0 + 9_000), at(T0 + 12_000)].map((t, i) => ({ at: t, status: i % 2 ? 'PAUSED' : 'ENABLED' }))
    expect(foldStatusHistory([{ at: at(T0 - DAY_MS), status: 'PAUSED' }, ...history], 0)).toEqual([{ at: at(T0 - DAY_MS), status: 'PAUSED' }, ...history])
  })

  it('does not fold before the history is twice the changes kept as made', () => {
    const history = Array.from({ length: 2 * RECENT_STATUS_CHANGES }, (_, i): Entry => ({ at: at(T0 + i * 1_000), status: i % 2 ? 'PAUSED' : 'ENABLED' }))
    expect(appendStatusChange(history.slice(0, -1), history[history.length - 1])).toEqual(history)
    expect(appendStatusChange(history, { at: at(T0 + 999_999), status: 'PAUSED' }).length).toBeLessThanOrEqual(RECENT_STATUS_CHANGES + 4)
  })

  it('stays bounded when an agent pauses and enables a campaign thousands of times, with the same metrics as the whole history', async () => {
    const clock = { now: T0 + 9 * 3_600_000 }
    const deps: Deps = { store: await openStore(), clock: { now: () => clock.now }, ids: sequentialIds() }
    let row = deps.store.campaigns.insert(campaignWith([{ at: at(T0 - 40 * DAY_MS), status: 'ENABLED' }]))
    const every: Entry[] = [...row.status_history]
    for (let i = 0; i < 3_000; i++) {
      clock.now += 7_000 + (i % 13) * 1_000
      const status = row.status === 'ENABLED' ? 'PAUSED' : 'ENABLED'
      row = changeStatus(deps, row, status)
      every.push({ at: at(clock.now), status })
    }
    expect(row.status_history.length).toBeLessThanOrEqual(2 * RECENT_STATUS_CHANGES)
    expect(row.status_history.slice(-RECENT_STATUS_CHANGES)).toEqual(every.slice(-RECENT_STATUS_CHANGES))
    const now = clock.now + 1
    expect(metricsRange(row, '2026-02-27', '2026-03-03', now)).toEqual(metricsRange({ ...row, status_history: every }, '2026-02-27', '2026-03-03', now))
  })
})
