import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Deps, Snapshot } from './ports.js'
import type { AuditEntry } from './model.js'
import { authenticate } from './access.js'
import { dispatch } from './dispatcher.js'
import { approveWrite, rejectWrite } from './reviews.js'
import { findPendingDuplicate } from './pending-writes.js'

const KEYS = ['svc_test_agentAcme00000000000000000000000', 'svc_test_ownerAcme00000000000000000000000']
const T0 = Date.parse('2026-11-23T12:00:00Z')
const HOUR = 3_600_000
const person = { name: 'Rey', key_id: null }

let sandbox: Sandbox
let deps: Deps
let wall = T0

beforeEach(async () => {
  wall = T0
  sandbox = await buildSandbox({ wall: () => wall })
  deps = sandbox.ctx.deps
})
afterEach(async () => sandbox.close())

/** Two ENABLED and two PAUSED campaigns: enabling either kind is held under the default policy. */
const campaigns = () => [...deps.store.campaigns.filter((c) => c.status === 'ENABLED').slice(0, 2), ...deps.store.campaigns.filter((c) => c.status === 'PAUSED').slice(0, 2)]

function run(key: string, script: string, args: string[]) {
  return dispatch(deps, authenticate(deps, key), { script_name: script, args, platform: 'google', surface: 'rest' })
}

function hold(keyIndex: number, campaignId: string): AuditEntry {
  const outcome = run(KEYS[keyIndex], 'enable_campaign', ['--campaign-id', campaignId])
  if (outcome.kind !== 'held') throw new Error(`expected a held write, got ${outcome.kind}`)
  return outcome.audit
}

/** What the lookup answered before it had hints: the oldest pending row with the key, unless expired by now. */
function scanned(key: string): AuditEntry | undefined {
  const first = deps.store.audit.find((e) => e.status === 'pending_review' && e.dedupe_key === key)
  if (!first) return undefined
  return first.expires_at && deps.clock.now() >= Date.parse(first.expires_at) ? undefined : first
}

type Op =
  | { op: 'hold'; key: number; campaign: number }
  | { op: 'history'; rows: number }
  | { op: 'approve' | 'reject'; pick: number }
  | { op: 'advance'; hours: number }
  | { op: 'reimport' }

const ops: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('hold' as const), key: fc.integer({ min: 0, max: 1 }), campaign: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('history' as const), rows: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('approve' as const, 'reject' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 80 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reimport' as const) }) },
)

async function apply(step: Op, ids: string[]): Promise<void> {
  if (step.op === 'hold') hold(step.key, ids[step.campaign])
  if (step.op === 'history') {
    for (let i = 0; i < step.rows; i++) run(KEYS[1], 'update_campaign_budget', ['--campaign-id', ids[0], '--daily-budget', String(50 + (i % 2))])
  }
  if (step.op === 'advance') wall += step.hours * HOUR
  // An import parses JSON: every row becomes a new object, as after `POST /_sandbox/state`.
  if (step.op === 'reimport') deps.store.replace(JSON.parse(JSON.stringify(deps.store.snapshot())) as Snapshot)
  if (step.op === 'approve' || step.op === 'reject') {
    const pending = deps.store.audit.filter((e) => e.status === 'pending_review')
    const target = pending[step.pick % Math.max(1, pending.length)]
    if (!target) return
    const request = { auditId: target.id, reviewer: person }
    await (step.op === 'approve' ? approveWrite(deps, request) : Promise.resolve(rejectWrite(deps, request))).catch(() => undefined)
  }
}

describe('findPendingDuplicate', () => {
  it('answers what a scan of the whole audit answers, after every step of any sequence of holds, reviews, history, expiry and imports', async () => {
    await fc.assert(fc.asyncProperty(fc.array(ops, { minLength: 1, maxLength: 30 }), async (steps) => {
      await sandbox.close()
      wall = T0
      sandbox = await buildSandbox({ wall: () => wall })
      deps = sandbox.ctx.deps
      const ids = campaigns().map((c) => c.id)
      const keys = new Set<string>()
      for (const step of steps) {
        await apply(step, ids)
        for (const e of deps.store.audit.all()) if (e.dedupe_key && e.script === 'enable_campaign') keys.add(e.dedupe_key)
        for (const key of keys) {
          const expected = scanned(key)
          const found = findPendingDuplicate(deps, key)
          expect(found?.id, `${key} after ${JSON.stringify(step)}`).toBe(expected?.id)
          if (found) expect(found).toBe(deps.store.audit.get(found.id))
        }
      }
    }), { numRuns: 40 })
  })

  it('finds a retried held write without scanning the audit, on an ENABLED and a PAUSED campaign alike', () => {
    const [enabled, , paused] = campaigns()
    const first = { enabled: hold(0, enabled.id), paused: hold(0, paused.id) }
    for (let i = 0; i < 200; i++) run(KEYS[1], 'update_campaign_budget', ['--campaign-id', enabled.id, '--daily-budget', String(50 + (i % 2))])
    const audit = deps.store.audit
    let scans = 0
    const find = audit.find.bind(audit)
    audit.find = (predicate) => (scans++, find(predicate))
    for (let i = 0; i < 50; i++) {
      expect(hold(0, enabled.id).id).toBe(first.enabled.id)
      expect(hold(0, paused.id).id).toBe(first.paused.id)
    }
    expect(scans).toBe(0)
    expect(audit.filter((e) => e.status === 'pending_review')).toHaveLength(2)
  })

  it('queues a new entry once the pending one is reviewed or expired, and finds that one on the next retry', async () => {
    const [, , paused, other] = campaigns()
    const a = hold(1, paused.id)
    rejectWrite(deps, { auditId: a.id, reviewer: person })
    const b = hold(1, paused.id)
    expect(b.id).not.toBe(a.id)
    expect(hold(1, paused.id).id).toBe(b.id)
    wall += 73 * HOUR
    const c = hold(1, paused.id)
    expect(deps.store.audit.get(b.id)?.status).toBe('expired')
    expect(c.id).not.toBe(b.id)
    expect(hold(1, paused.id).id).toBe(c.id)
    const d = hold(1, other.id)
    await approveWrite(deps, { auditId: d.id, reviewer: person })
    expect(hold(1, other.id).id).not.toBe(d.id)
  })
})
