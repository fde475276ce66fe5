import { describe, expect, it } from 'vitest'
import type { AuditEntry, LedgerEntry } from '../domain/model.js'
import { buildTranscript } from './transcript.js'

function audit(patch: Partial<AuditEntry>): AuditEntry {
  return {
    id: 'aud_1', at: '2026-01-01T10:00:00.000Z', workspace_id: 'ws_a', key_id: 'key_agent', key_prefix: 'svc_test_age', user_id: 'usr_o',
    surface: 'rest', script: 'pause_campaign', args: [], platform: 'google', operation: 'pause', decision: 'run', reason: 'r', rule: 'default.run',
    status: 'executed', credits: 2, before: null, after: null, result: null, expires_at: null, review: null, ...patch,
  } as AuditEntry
}

function ledger(patch: Partial<LedgerEntry>): LedgerEntry {
  return { id: 'led_1', at: '2026-01-01T10:00:00.000Z', workspace_id: 'ws_a', key_id: 'key_agent', script: 'x', amount: -2, balance_after: 98, reason: 'charge', audit_id: null, ...patch }
}

const budget = (id: string, before: number, after: number, status: AuditEntry['status'] = 'executed') => audit({
  id, operation: 'budget', script: 'update_campaign_budget', args: ['--campaign-id', 'c1', '--daily-budget', String(after)], status,
  before: { campaign_id: 'c1', daily_budget: before, currency: 'USD' }, after: status === 'executed' ? { campaign_id: 'c1', daily_budget: after, currency: 'USD' } : null,
})

const base = { ledger: [] as LedgerEntry[], keyIds: null, filter: {}, now: '2026-01-02T00:00:00.000Z' }

describe('buildTranscript', () => {
  it.each([
    ['a direct run counts as attempted and executed', [audit({})], { attempted: 1, executed: 1, held: 0, blocked: 0 }],
    ['a held write still waiting counts as held and pending, not executed', [audit({ decision: 'hold', status: 'pending_review' })], { attempted: 1, executed: 0, held: 1, pending: 1 }],
    ['an approved held write counts as held, approved and executed', [audit({ decision: 'hold', status: 'approved', review: { by: 'Rey', action: 'approve', at: '2026-01-01T11:00:00.000Z' } })], { held: 1, approved: 1, executed: 1 }],
    ['a rejected held write counts as held and rejected', [audit({ decision: 'hold', status: 'rejected', review: { by: 'Rey', action: 'reject', at: '2026-01-01T11:00:00.000Z' } })], { held: 1, rejected: 1, executed: 0 }],
    ['a blocked write counts as blocked only', [audit({ decision: 'block', status: 'blocked' })], { attempted: 1, blocked: 1, executed: 0 }],
  ])('%s', (_name, entries, expected) => {
    expect(buildTranscript({ ...base, audit: entries }).totals).toMatchObject(expected)
  })

  it('sums executed budget changes per currency and ignores blocked ones', () => {
    const t = buildTranscript({ ...base, audit: [budget('a1', 50, 80), budget('a2', 80, 65.5), budget('a3', 65.5, 9000, 'blocked')] })
    expect(t.budget_delta_by_currency).toEqual({ USD: 15.5 })
    expect(t.budget_changes.map((b) => [b.audit_id, b.delta, b.requested])).toEqual([['a1', 30, 80], ['a2', -14.5, 65.5], ['a3', null, 9000]])
  })

  it('takes the campaign from --campaign-id and its currency from the campaign when the record names neither', () => {
    const entry = audit({ id: 'b1', operation: 'budget', args: ['--campaign-id', 'c9', '--daily-budget', '40'], before: { daily_budget: 25 }, after: { daily_budget: 40 } })
    const t = buildTranscript({ ...base, audit: [entry], currencyOf: (id) => (id === 'c9' ? 'EUR' : null) })
    expect(t.budget_changes[0]).toMatchObject({ campaign_id: 'c9', before: 25, after: 40, delta: 15, currency: 'EUR' })
    expect(t.budget_delta_by_currency).toEqual({ EUR: 15 })
  })

  it('reads a blocked budget write from the gate explanation: requested amount, no delta, not summed', () => {
    const entry = audit({
      id: 'blk', operation: 'budget', decision: 'block', status: 'blocked', args: ['--campaign-id', 'c5', '--daily-budget', '900'],
      explanation: { limit: { name: 'max_daily_budget', limit: 500, value: 900, campaign_id: 'c5', current: 50, proposed: 900, currency: 'GBP' } },
    })
    const t = buildTranscript({ ...base, audit: [entry] })
    expect(t.budget_changes[0]).toMatchObject({ campaign_id: 'c5', before: 50, requested: 900, after: null, delta: null, currency: 'GBP' })
    expect(t.budget_delta_by_currency).toEqual({})
  })

  it('keeps only writes inside the window and of the chosen key prefix', () => {
    const entries = [
      audit({ id: 'early', at: '2026-01-01T08:00:00.000Z' }),
      audit({ id: 'inside', at: '2026-01-01T10:00:00.000Z' }),
      audit({ id: 'other-key', at: '2026-01-01T10:30:00.000Z', key_prefix: 'svc_test_own' }),
      audit({ id: 'late', at: '2026-01-01T13:00:00.000Z' }),
    ]
    const t = buildTranscript({ ...base, audit: entries, filter: { from: '2026-01-01T09:00:00.000Z', to: '2026-01-01T12:00:00.000Z', key_prefix: 'svc_test_age' } })
    expect(t.writes.map((w) => w.id)).toEqual(['inside'])
  })

  it('counts credits charged minus refunded for the chosen keys only', () => {
    const t = buildTranscript({
      ...base, audit: [], keyIds: new Set(['key_agent']),
      ledger: [ledger({ amount: -5 }), ledger({ id: 'l2', amount: 5, reason: 'refund' }), ledger({ id: 'l3', amount: -3 }), ledger({ id: 'l4', amount: -7, key_id: 'key_owner' }), ledger({ id: 'l5', amount: 500, reason: 'grant', key_id: null })],
    })
    expect(t.credits).toMatchObject({ charged: 8, refunded: 5, net: 3, reads: { charged: 8, refunded: 5, net: 3 } })
  })

  it('accounts reads and writes separately: the reads by script and the writes table each sum to their part of the total', () => {
    const writes = [audit({ id: 'w1' }), audit({ id: 'w2', status: 'failed' }), audit({ id: 'w3', decision: 'hold', status: 'approved' })]
    const t = buildTranscript({
      ...base, audit: writes, keyIds: new Set(['key_agent']),
      ledger: [
        ledger({ id: 'r1', script: 'get_campaigns', amount: -1 }), ledger({ id: 'r2', script: 'get_campaigns', amount: -1 }), ledger({ id: 'r3', script: 'get_metrics', amount: -1 }),
        ledger({ id: 'c1', audit_id: 'w1', amount: -2 }), ledger({ id: 'c2', audit_id: 'w2', amount: -2 }), ledger({ id: 'f2', audit_id: 'w2', amount: 2, reason: 'refund' }),
        // Charged on approval under the reviewer's key: still this write's cost.
        ledger({ id: 'c3', audit_id: 'w3', amount: -5, key_id: 'key_reviewer' }),
      ],
    })
    expect(t.reads).toEqual([{ script: 'get_campaigns', calls: 2, credits: 2 }, { script: 'get_metrics', calls: 1, credits: 1 }])
    expect(t.writes.map((w) => [w.id, w.credits])).toEqual([['w1', 2], ['w2', 0], ['w3', 5]])
    expect(t.credits).toEqual({ charged: 12, refunded: 2, net: 10, reads: { charged: 3, refunded: 0, net: 3 }, writes: { charged: 9, refunded: 2, net: 7 } })
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
    expect(sum(t.reads.map((r) => r.credits)) + sum(t.writes.map((w) => w.credits))).toBe(t.credits.net)
  })
})
