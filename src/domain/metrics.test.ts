import { describe, expect, it } from 'vitest'
import type { Campaign } from './model.js'
import { DAY_MS, dailyMetrics, dayStart, lastDays, metricsRange, rangeTotals, sumMetrics, todaySteadyUntil, withTotals } from './metrics.js'

const T0 = Date.parse('2026-03-01T00:00:00Z')
const at = (days: number, hours = 0) => new Date(T0 + days * DAY_MS + hours * 3_600_000).toISOString()

function campaign(over: Partial<Campaign> = {}): Campaign {
  return {
    id: '1234567890', workspace_id: 'ws', connection_id: 'c', platform: 'google', campaign_name: 'Test', channel_type: 'SEARCH',
    status: 'ENABLED', daily_budget: 100, currency: 'USD', bidding_strategy: 'MAXIMIZE_CONVERSIONS', created_at: at(-30),
    status_history: [{ at: at(-30), status: 'ENABLED' }], budget_history: [{ at: at(-30), daily_budget: 100 }], seed: 99, ...over,
  }
}

const END_OF_DAY = T0 + DAY_MS

describe('daily metrics', () => {
  it('are deterministic per campaign seed and date, and differ across dates and seeds', () => {
    const a = dailyMetrics(campaign(), '2026-03-01', END_OF_DAY)
    expect(dailyMetrics(campaign(), '2026-03-01', END_OF_DAY)).toEqual(a)
    expect(dailyMetrics(campaign(), '2026-02-28', END_OF_DAY)).not.toEqual(a)
    expect(dailyMetrics(campaign({ seed: 7 }), '2026-03-01', END_OF_DAY)).not.toEqual(a)
  })

  it('pace against the daily budget: a full day spends 72-100 % of it, never more', () => {
    for (let d = 1; d <= 60; d++) {
      const m = dailyMetrics(campaign({ seed: d }), '2026-03-01', END_OF_DAY)
      expect(m.cost).toBeLessThanOrEqual(100)
      expect(m.cost).toBeGreaterThan(60)
      expect(m.impressions).toBeGreaterThanOrEqual(m.clicks)
      expect(m.ctr).toBeCloseTo(m.clicks / m.impressions, 3)
    }
  })

  it('accrue through the current day as time passes and stop at now', () => {
    const c = campaign()
    const rows = [6, 12, 24].map((h) => dailyMetrics(c, '2026-03-01', T0 + h * 3_600_000))
    expect(rows[0].clicks).toBeLessThan(rows[1].clicks)
    expect(rows[1].clicks).toBeLessThan(rows[2].clicks)
    expect(rows[2]).toEqual(dailyMetrics(c, '2026-03-01', T0 + 48 * 3_600_000))
    expect(dailyMetrics(c, '2026-03-02', T0 + 12 * 3_600_000).clicks).toBe(0)
  })

  it('stop while the campaign is paused and resume when enabled again', () => {
    const paused = campaign({ status_history: [{ at: at(-30), status: 'ENABLED' }, { at: at(0, 12), status: 'PAUSED' }, { at: at(2), status: 'ENABLED' }] })
    const full = dailyMetrics(campaign(), '2026-03-01', END_OF_DAY)
    const half = dailyMetrics(paused, '2026-03-01', END_OF_DAY)
    // Enabled for 12 of 24 hours: half the day's clicks (up to rounding).
    expect(Math.abs(half.clicks - full.clicks / 2)).toBeLessThanOrEqual(1)
    expect(dailyMetrics(paused, '2026-03-02', T0 + 3 * DAY_MS)).toMatchObject({ impressions: 0, clicks: 0, cost: 0 })
    expect(dailyMetrics(paused, '2026-03-03', T0 + 4 * DAY_MS).clicks).toBeGreaterThan(0)
  })

  it('use a budget change from the next simulated day, not the day it was made', () => {
    const raised = campaign({ budget_history: [{ at: at(-30), daily_budget: 100 }, { at: at(0, 10), daily_budget: 1000 }] })
    expect(dailyMetrics(raised, '2026-03-01', END_OF_DAY)).toEqual(dailyMetrics(campaign(), '2026-03-01', END_OF_DAY))
    const next = dailyMetrics(raised, '2026-03-02', T0 + 2 * DAY_MS)
    expect(next.cost).toBeGreaterThan(700)
    expect(next.cost).toBeLessThanOrEqual(1000)
  })

  it('skip days before the campaign existed and derive ctr, cpc and cpa from sums', () => {
    const young = campaign({ created_at: at(0, 12), status_history: [{ at: at(0, 12), status: 'ENABLED' }] })
    const rows = metricsRange(young, '2026-02-27', '2026-03-02', T0 + 3 * DAY_MS)
    expect(rows.map((r) => r.date)).toEqual(['2026-03-01', '2026-03-02'])
    const total = sumMetrics(rows)
    expect(total.clicks).toBe(rows[0].clicks + rows[1].clicks)
    expect(total.cpc).toBeCloseTo(total.cost / total.clicks, 2)
    expect(total.cpa).toBeCloseTo(total.cost / total.conversions, 2)
    expect(sumMetrics([])).toEqual({ impressions: 0, clicks: 0, conversions: 0, cost: 0, ctr: 0, cpc: 0, cpa: 0 })
  })

  it('give the same rows when a window is asked again, while today keeps growing with the clock', () => {
    const c = campaign()
    const morning = T0 + 2 * DAY_MS + 6 * 3_600_000
    const first = metricsRange(c, '2026-02-20', '2026-03-03', morning)
    expect(metricsRange(campaign(), '2026-02-20', '2026-03-03', morning)).toEqual(first)
    const evening = metricsRange(c, '2026-02-20', '2026-03-03', morning + 12 * 3_600_000)
    expect(evening.slice(0, -1)).toEqual(first.slice(0, -1))
    expect(evening.at(-1)!.clicks).toBeGreaterThan(first.at(-1)!.clicks)
  })

  it('total a window exactly like summing its rows, on repeated and moving windows', () => {
    const c = campaign({ budget_history: [{ at: at(-30), daily_budget: 100 }, { at: at(-3, 7), daily_budget: 37.5 }] })
    for (const hours of [1, 13, 30, 79]) {
      const now = T0 + hours * 3_600_000
      for (const [from, to] of [['2026-02-01', '2026-03-04'], ['2026-02-27', '2026-03-01'], ['2026-03-02', '2026-03-09']]) {
        expect(rangeTotals(c, from, to, now)).toEqual(sumMetrics(metricsRange(c, from, to, now)))
        expect(rangeTotals(c, from, to, now)).toEqual(sumMetrics(metricsRange(campaign({ budget_history: c.budget_history }), from, to, now)))
      }
    }
  })
})

describe('ended days shared between versions of a campaign row', () => {
  // Each day of the window from a row object never seen before: nothing cached can answer it.
  const fresh = (c: Campaign, from: string, to: string, now: number) => metricsRange({ ...c }, from, to, now).map((r) => dailyMetrics({ ...c }, r.date, now))
  const now = T0 + 15 * 3_600_000
  const base = campaign({ budget_history: [{ at: at(-30), daily_budget: 100 }, { at: at(-6, 9), daily_budget: 140 }] })

  it.each([
    ['a budget change made today', { budget_history: [...base.budget_history, { at: at(0, 10), daily_budget: 999 }] }],
    ['a pause made today', { status_history: [...base.status_history, { at: at(0, 11), status: 'PAUSED' }] }],
    ['a change to an ended day\'s budget', { budget_history: [base.budget_history[0], { at: at(-6, 9), daily_budget: 60 }] }],
    ['a different starting budget', { budget_history: [{ at: at(-30), daily_budget: 70 }, base.budget_history[1]] }],
    ['a pause entered for yesterday (a clock rewound and changed)', { status_history: [...base.status_history, { at: at(-1, 12), status: 'PAUSED' }] }],
    ['an ended day\'s budget change left out', { budget_history: [base.budget_history[0]] }],
    ['an ended day\'s budget change moved after one made today', { budget_history: [base.budget_history[0], { at: at(0, 10), daily_budget: 999 }, base.budget_history[1]] }],
    ['a first budget entry made today on a row without history', { budget_history: [{ at: at(0, 10), daily_budget: 500 }] }],
    ['another seed', { seed: 7 }],
    ['another channel', { channel_type: 'DISPLAY' }],
    ['a later creation', { created_at: at(-3, 4), status_history: [{ at: at(-3, 4), status: 'ENABLED' }] }],
  ] as const)('gives the rows a fresh computation gives after %s', (_what, change) => {
    for (const [from, to] of [['2026-01-31', '2026-03-01'], ['2026-02-23', '2026-03-01'], ['2026-02-20', '2026-02-27']]) {
      // The version before the change is asked first, so its ended days are there to be (wrongly) reused.
      metricsRange(base, from, to, now)
      rangeTotals(base, from, to, now)
      const next = { ...base, ...change } as Campaign
      expect(metricsRange(next, from, to, now)).toEqual(fresh(next, from, to, now))
      expect(rangeTotals(next, from, to, now)).toEqual(sumMetrics(fresh(next, from, to, now)))
    }
  })

  it('reuses the ended days of the version before a change made today, and recomputes today', () => {
    const before = metricsRange(base, '2026-02-23', '2026-03-01', now)
    const next: Campaign = { ...base, status_history: [...base.status_history, { at: at(0, 11), status: 'PAUSED' }] }
    const after = metricsRange(next, '2026-02-23', '2026-03-01', now)
    for (let i = 0; i < before.length - 1; i++) expect(after[i]).toBe(before[i])
    expect(after.at(-1)!.clicks).toBeLessThan(before.at(-1)!.clicks)
  })
})

describe('steady windows of today\'s metrics', () => {
  const today = '2026-03-01'
  // Every instant from `now` to the window's end, in ~2000 even steps plus both ends.
  const instants = (from: number, to: number) => [from, to, ...Array.from({ length: 2000 }, (_, i) => from + Math.floor(((to - from) * i) / 2000))]

  it.each([
    ['an enabled search campaign', campaign()],
    ['a display campaign with many impressions', campaign({ channel_type: 'DISPLAY', daily_budget: 900, budget_history: [{ at: at(-30), daily_budget: 900 }] })],
    ['a campaign paused this morning', campaign({ status_history: [{ at: at(-30), status: 'ENABLED' }, { at: at(0, 5), status: 'PAUSED' }] })],
    ['a campaign paused now that resumes this evening', campaign({ status_history: [{ at: at(-30), status: 'ENABLED' }, { at: at(0, 5), status: 'PAUSED' }, { at: at(0, 20), status: 'ENABLED' }] })],
    ['a campaign created today', campaign({ created_at: at(0, 3), status_history: [{ at: at(0, 3), status: 'ENABLED' }] })],
  ])('hold for %s at every instant up to their end', (_what, c) => {
    for (let seed = 1; seed <= 6; seed++) {
      const subject = { ...c, seed }
      for (const hours of [0, 2.5, 9, 13.75, 23.99]) {
        const now = T0 + Math.floor(hours * 3_600_000)
        const until = todaySteadyUntil(subject, now)
        expect(until).toBeGreaterThanOrEqual(now)
        expect(until).toBeLessThan(T0 + DAY_MS)
        const expected = dailyMetrics(subject, today, now)
        for (const t of instants(now, until)) expect(dailyMetrics(subject, today, t)).toEqual(expected)
      }
    }
  })

  it('last until the next counted click or impression while enabled, and to midnight while paused', () => {
    const enabled = campaign()
    const now = T0 + 12 * 3_600_000
    const until = todaySteadyUntil(enabled, now)
    expect(until).toBeGreaterThan(now)
    const changed = (t: number) => JSON.stringify(dailyMetrics(enabled, today, t)) !== JSON.stringify(dailyMetrics(enabled, today, now))
    let firstChange = until + 1
    while (!changed(firstChange)) firstChange++
    // The estimate stops a hair short of the real change, never seconds short.
    expect(firstChange - until).toBeLessThanOrEqual(3)
    const paused = campaign({ status_history: [{ at: at(-30), status: 'ENABLED' }, { at: at(0, 5), status: 'PAUSED' }] })
    expect(todaySteadyUntil(paused, now)).toBe(T0 + DAY_MS - 1)
  })
})


describe('lastDays', () => {
  it.each([
    [Date.UTC(2026, 10, 27, 9), 30, '2026-10-29', '2026-11-27'],
    [Date.UTC(2026, 10, 27, 23, 59), 30, '2026-10-29', '2026-11-27'],
    [Date.UTC(2026, 10, 27, 9), 7, '2026-11-21', '2026-11-27'],
    [Date.UTC(2026, 10, 28), 30, '2026-10-30', '2026-11-28'],
    [Date.UTC(2024, 2, 1), 2, '2024-02-29', '2024-03-01'],
    [Date.UTC(2026, 10, 27, 9), 30, '2026-10-29', '2026-11-27'],
  ])('gives the window of %i over %i days as %s to %s, whatever was asked before', (now, days, start_date, end_date) => {
    expect(lastDays(now, days)).toEqual({ start_date, end_date })
  })
})

describe('dayStart', () => {
  it.each(['2026-03-01', '2024-02-29', '1999-12-31', '2026-13-45', 'not a date', ''])('is Date.parse of %j at midnight UTC, asked once or twice', (date) => {
    const expected = Date.parse(`${date}T00:00:00Z`)
    expect(Object.is(dayStart(date), expected)).toBe(true)
    expect(Object.is(dayStart(date), expected)).toBe(true)
  })
})

describe('withTotals', () => {
  it('gives the spread object, key order included', () => {
    const totals = sumMetrics([{ impressions: 1000, clicks: 30, conversions: 2, cost: 45.5, ctr: 0, cpc: 0, cpa: 0 }])
    const head = { date: '2026-03-01', campaign_id: 'c1' }
    const expected = { ...head, ...totals }
    const got = withTotals({ ...head }, totals)
    expect(got).toEqual(expected)
    expect(JSON.stringify(got)).toBe(JSON.stringify(expected))
  })
})
