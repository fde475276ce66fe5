import { describe, expect, it } from 'vitest'
import type { Operation, Policy } from './model.js'
import type { WriteIntent } from './policy.js'
import { decideWrite, defaultPolicy, evaluateHours } from './policy.js'

const at = (text: string) => Date.parse(text)
const policy = (patch: Partial<Policy> = {}): Policy => ({ ...defaultPolicy(), ...patch })
const write = (operation: Operation, script = `${operation}_campaign`, budget?: WriteIntent['budget']): WriteIntent => ({ script, operation, resource: 'campaign', budget })
const budget = (current: number, proposed: number): WriteIntent['budget'] => ({ campaign_id: 'cmp_1', current, proposed, currency: 'USD' })
const MONDAY_NOON_UTC = at('2026-11-23T12:00:00Z')

describe('default policy (GATE-03)', () => {
  it.each([
    ['pause', 'run', 'default.run'],
    ['budget', 'run', 'default.run'],
    ['enable', 'hold', 'hold.operation'],
    ['remove', 'hold', 'hold.operation'],
    ['creative', 'hold', 'hold.operation'],
    ['create', 'hold', 'hold.operation'],
    ['audience', 'run', 'default.run'],
  ] as const)('a %s write is decided %s by %s', (operation, action, rule) => {
    const decision = decideWrite(defaultPolicy(), write(operation), MONDAY_NOON_UTC)
    expect(decision).toMatchObject({ action, rule, evaluated_at: '2026-11-23T12:00:00.000Z' })
    expect(decision.reason).toContain(operation)
  })

  it('names the hold list that matched in the explanation', () => {
    const decision = decideWrite(defaultPolicy(), write('enable'), MONDAY_NOON_UTC)
    expect(decision.explanation.list).toEqual({ name: 'hold', matched: 'enable', entries: ['enable', 'remove', 'creative', 'create'] })
  })

  it('reviews expire after 72 hours by default', () => {
    expect(defaultPolicy().review_ttl_hours).toBe(72)
  })
})

describe('blocked tools and held operations (GATE-02)', () => {
  it.each([
    [{ block_tools: ['pause_campaign'] }, write('pause'), 'block', 'block.tool'],
    [{ block_tools: ['enable_campaign'] }, write('enable'), 'block', 'block.tool'],
    [{ block_tools: ['other_tool'] }, write('pause'), 'run', 'default.run'],
    [{ hold: ['pause'] as Operation[] }, write('pause'), 'hold', 'hold.operation'],
    [{ hold: [] as Operation[] }, write('enable'), 'run', 'default.run'],
  ])('policy %j decides %j as %s', (patch, intent, action, rule) => {
    expect(decideWrite(policy(patch), intent, MONDAY_NOON_UTC)).toMatchObject({ action, rule })
  })

  it('a blocked tool wins over a held operation and names the block list', () => {
    const decision = decideWrite(policy({ block_tools: ['enable_campaign'] }), write('enable'), MONDAY_NOON_UTC)
    expect(decision).toMatchObject({ action: 'block', rule: 'block.tool', explanation: { list: { name: 'block_tools', matched: 'enable_campaign' } } })
  })
})

describe('operating hours over sandbox time (GATE-02)', () => {
  const newYorkWeekdays = { timezone: 'America/New_York', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }
  it.each([
    ['Monday 08:59 in New York', '2026-11-23T13:59:00Z', 'block', 'mon', '08:59'],
    ['Monday 09:00 in New York (start is inclusive)', '2026-11-23T14:00:00Z', 'run', 'mon', '09:00'],
    ['Monday 16:59 in New York', '2026-11-23T21:59:00Z', 'run', 'mon', '16:59'],
    ['Monday 17:00 in New York (end is exclusive)', '2026-11-23T22:00:00Z', 'block', 'mon', '17:00'],
    ['Monday 10:00 UTC, only 05:00 in New York', '2026-11-23T10:00:00Z', 'block', 'mon', '05:00'],
    ['Tuesday 01:00 UTC, still Monday 20:00 in New York', '2026-11-24T01:00:00Z', 'block', 'mon', '20:00'],
    ['Saturday 12:00 in New York', '2026-11-28T17:00:00Z', 'block', 'sat', '12:00'],
    ['Friday 12:00 in summer time (UTC-4)', '2026-07-10T16:00:00Z', 'run', 'fri', '12:00'],
  ])('%s: %s → %s', (_label, when, action, day, time) => {
    const decision = decideWrite(policy({ operating_hours: newYorkWeekdays }), write('pause'), at(when))
    expect(decision.action).toBe(action)
    expect(decision.explanation.hours).toMatchObject({ ...newYorkWeekdays, local_day: day, local_time: time, within: action === 'run', evaluated_at: new Date(when).toISOString() })
    if (action === 'block') {
      expect(decision.rule).toBe('block.operating_hours')
      expect(decision.reason).toContain('America/New_York')
    }
  })

  const tokyoFridayNight = { timezone: 'Asia/Tokyo', days: ['fri'], start: '22:00', end: '02:00' }
  it.each([
    ['Friday 21:59 Tokyo', '2026-11-27T12:59:00Z', false],
    ['Friday 22:00 Tokyo', '2026-11-27T13:00:00Z', true],
    ['Saturday 01:59 Tokyo (the Friday window runs overnight)', '2026-11-27T16:59:00Z', true],
    ['Saturday 02:00 Tokyo', '2026-11-27T17:00:00Z', false],
    ['Friday 01:00 Tokyo (that belongs to Thursday)', '2026-11-26T16:00:00Z', false],
  ])('an overnight window: %s is within = %s', (_label, when, within) => {
    expect(evaluateHours(tokyoFridayNight, at(when)).within).toBe(within)
  })

  it('a window whose start equals its end covers the whole of its days', () => {
    const allWeekend = { timezone: 'UTC', days: ['sat', 'sun'], start: '00:00', end: '00:00' }
    expect(evaluateHours(allWeekend, at('2026-11-22T23:59:00Z')).within).toBe(true)
    expect(evaluateHours(allWeekend, at('2026-11-23T00:00:00Z')).within).toBe(false)
  })

  it('outside hours blocks even an operation the policy would hold', () => {
    const decision = decideWrite(policy({ operating_hours: newYorkWeekdays }), write('enable'), at('2026-11-28T17:00:00Z'))
    expect(decision).toMatchObject({ action: 'block', rule: 'block.operating_hours' })
  })

  it('inside hours the hours window is still reported, and the hold list decides', () => {
    const decision = decideWrite(policy({ operating_hours: newYorkWeekdays }), write('enable'), at('2026-11-23T15:00:00Z'))
    expect(decision).toMatchObject({ action: 'hold', rule: 'hold.operation', explanation: { hours: { within: true } } })
  })
})

describe('monetary limits (GATE-02) and the budget hold threshold', () => {
  const limits = (max_daily_budget: number | null, max_budget_increase_pct: number | null) => ({ max_daily_budget, max_budget_increase_pct })
  it.each([
    ['at the max daily budget', { limits: limits(500, null) }, budget(100, 500), 'run', 'default.run'],
    ['a cent over the max daily budget', { limits: limits(500, null) }, budget(100, 500.01), 'block', 'block.max_daily_budget'],
    ['an increase of exactly the max %', { limits: limits(null, 50) }, budget(100, 150), 'run', 'default.run'],
    ['an increase just over the max %', { limits: limits(null, 50) }, budget(100, 150.5), 'block', 'block.max_budget_increase_pct'],
    ['a decrease under an increase limit', { limits: limits(null, 10) }, budget(100, 20), 'run', 'default.run'],
    ['an increase of exactly the hold threshold', { hold_budget_increase_pct: 20 }, budget(100, 120), 'run', 'default.run'],
    ['an increase over the hold threshold', { hold_budget_increase_pct: 20 }, budget(100, 121), 'hold', 'hold.budget_increase_pct'],
    ['over both hold and block thresholds: block wins', { hold_budget_increase_pct: 20, limits: limits(null, 50) }, budget(100, 200), 'block', 'block.max_budget_increase_pct'],
    ['from a zero budget: increase rules do not apply', { hold_budget_increase_pct: 20, limits: limits(null, 50) }, budget(0, 80), 'run', 'default.run'],
    ['over the max daily budget and the max %: the budget cap is named', { limits: limits(150, 10) }, budget(100, 200), 'block', 'block.max_daily_budget'],
  ] as const)('%s → %s (%s)', (_label, patch, intentBudget, action, rule) => {
    const decision = decideWrite(policy(patch as Partial<Policy>), write('budget', 'update_campaign_budget', intentBudget), MONDAY_NOON_UTC)
    expect(decision).toMatchObject({ action, rule })
    if (action !== 'run') expect(decision.explanation.limit).toMatchObject({ campaign_id: 'cmp_1', current: intentBudget?.current, proposed: intentBudget?.proposed })
  })

  it('the explanation names the limit, its value and the computed increase', () => {
    const decision = decideWrite(policy({ limits: { max_daily_budget: null, max_budget_increase_pct: 30 } }), write('budget', 'update_campaign_budget', budget(80, 120)), MONDAY_NOON_UTC)
    expect(decision.explanation.limit).toEqual({ name: 'max_budget_increase_pct', limit: 30, value: 50, campaign_id: 'cmp_1', current: 80, proposed: 120, currency: 'USD' })
    expect(decision.reason).toContain('50%')
  })

  it('writes without a budget are not affected by monetary limits', () => {
    const decision = decideWrite(policy({ limits: { max_daily_budget: 1, max_budget_increase_pct: 1 } }), write('pause'), MONDAY_NOON_UTC)
    expect(decision.action).toBe('run')
  })

  it('is pure: the same inputs give the same decision', () => {
    const p = policy({ hold_budget_increase_pct: 5 })
    const w = write('budget', 'update_campaign_budget', budget(10, 11))
    expect(decideWrite(p, w, MONDAY_NOON_UTC)).toEqual(decideWrite(p, w, MONDAY_NOON_UTC))
  })
})
