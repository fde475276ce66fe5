import { describe, expect, it } from 'vitest'
import { decideReview } from './reviewer.js'

const raise = (budget: string) => ({ script: 'update_campaign_budget', args: ['--campaign-id', '1', '--daily-budget', budget] })

describe('the simulated reviewer', () => {
  it.each([
    [{ answer: 'approve' as const, within_minutes: 0 }, raise('300'), 'approve'],
    [{ answer: 'reject' as const, within_minutes: 0 }, raise('300'), 'reject'],
    [{ answer: 'never' as const, within_minutes: 0 }, raise('300'), null],
    [{ answer: 'expire' as const, within_minutes: 0 }, raise('300'), 'expire'],
    [{ answer: 'approve' as const, within_minutes: 0, reject_budget_over: 250 }, raise('300'), 'reject'],
    [{ answer: 'approve' as const, within_minutes: 0, reject_budget_over: 250 }, raise('250'), 'approve'],
    [{ answer: 'never' as const, within_minutes: 0, reject_budget_over: 250 }, raise('251'), 'reject'],
    [{ answer: 'approve' as const, within_minutes: 0, reject_budget_over: 250 }, { script: 'enable_campaign', args: ['--campaign-id', '1'] }, 'approve'],
  ])('policy %j answers %j with %s', (policy, held, answer) => {
    expect(decideReview(policy, held)?.answer ?? null).toBe(answer)
  })
})
