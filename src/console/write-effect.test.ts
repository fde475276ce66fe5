import { describe, expect, it } from 'vitest'
import type { Campaign } from '../domain/model.js'
import { describeEffect } from './write-effect.js'

const campaign = (status: Campaign['status'], daily_budget: number) =>
  ({ id: 'c1', campaign_name: 'Spring', status, daily_budget, currency: 'EUR' }) as Campaign

describe('describeEffect: what approving a held write does, and when the console must ask first', () => {
  it.each([
    ['enable of a paused campaign starts its spend', 'enable', ['--campaign-id', 'c1'], campaign('PAUSED', 210),
      { raises_spend: true, spend_delta: 210, confirm: 'Enable “Spring” and start spending up to €210.00 a day (+€210.00/day)?' }],
    ['a budget raise names old, new and the daily difference', 'budget', ['--campaign-id', 'c1', '--daily-budget', '300'], campaign('ENABLED', 210),
      { raises_spend: true, spend_delta: 90, confirm: 'Raise the daily budget of “Spring” €210.00 → €300.00 (+€90.00/day)?' }],
    ['a budget cut needs no confirmation', 'budget', ['--campaign-id', 'c1', '--daily-budget', '100'], campaign('ENABLED', 210),
      { raises_spend: false, spend_delta: -110, confirm: null }],
    ['a create names the new budget', 'create', ['--campaign-name', 'New', '--daily-budget', '50'], null,
      { raises_spend: true, spend_delta: 50, confirm: 'Create campaign “New” with a daily budget of €50.00 (up to +€50.00/day once enabled)?' }],
    ['a create without a budget (a conversion action) still asks', 'create', ['--name', 'Purchase'], null,
      { raises_spend: true, spend_delta: null, confirm: 'Create what google_ads_create_conversion makes, which campaigns can spend money on?' }],
    ['a budget write without an amount asks, never reads it as 0', 'budget', ['--campaign-id', 'c1'], campaign('ENABLED', 210), { raises_spend: true, spend_delta: null }],
    ['a creative change can raise spend', 'creative', ['--campaign-id', 'c1'], campaign('ENABLED', 35), { raises_spend: true, spend_delta: null }],
    ['an audience can raise spend', 'audience', [], null, { raises_spend: true }],
    ['a pause stops spend without asking', 'pause', ['--campaign-id', 'c1'], campaign('ENABLED', 35), { raises_spend: false, spend_delta: -35, confirm: null }],
    ['a removal of an enabled campaign stops its spend', 'remove', ['--campaign-id', 'c1'], campaign('ENABLED', 35), { raises_spend: false, spend_delta: -35 }],
  ] as const)('%s', (_name, operation, args, c, expected) => {
    const effect = describeEffect({ operation, args: [...args], script: 'google_ads_create_conversion' }, c, 'EUR')
    expect(effect).toMatchObject(expected)
    expect(effect.summary.length).toBeGreaterThan(10)
    expect(effect.raises_spend).toBe(effect.confirm !== null)
  })

  it('says a paused campaign’s new budget applies once it is enabled', () => {
    expect(describeEffect({ operation: 'budget', args: ['--campaign-id', 'c1', '--daily-budget', '300'], script: 'x' }, campaign('PAUSED', 210), 'EUR').summary)
      .toBe('Sets the daily budget of “Spring” (paused, €210.00/day) from €210.00 to €300.00 (+€90.00/day once it is enabled).')
  })

  it('writes a cut with a real minus sign (U+2212), never a hyphen', () => {
    const cut = describeEffect({ operation: 'budget', args: ['--campaign-id', 'c1', '--daily-budget', '100'], script: 'x' }, campaign('ENABLED', 210), 'EUR').summary
    expect(cut).toContain('(\u2212€110.00/day)')
    expect(cut).not.toMatch(/-€|-\d/)
  })
})
