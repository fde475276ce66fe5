import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Deps } from './ports.js'
import type { Actor } from './access.js'
import { authenticate, resolveWorkspace } from './access.js'
import { prepareCall } from './args.js'
import { executeWrite, submitWrite } from './writes.js'
import { defaultPolicy } from './policy.js'

let sandbox: Sandbox
let deps: Deps
let actor: Actor

beforeEach(async () => {
  sandbox = await buildSandbox()
  deps = sandbox.ctx.deps
  actor = resolveWorkspace(deps, authenticate(deps, 'svc_test_ownerAcme00000000000000000000000'))
})
afterEach(() => sandbox.close())

const campaign = (status: string) => deps.store.campaigns.find((c) => c.status === status)!
const balance = () => deps.store.workspaces.get('ws_acme')!.credits.balance
const submit = (script: string, args: string[]) =>
  submitWrite(deps, { actor, call: prepareCall({ script_name: script, args, platform: 'google' }), surface: 'rest' })

describe('submitWrite / executeWrite', () => {
  it('records one audit entry per attempt with decision, rule, credits, before and after', () => {
    const id = campaign('ENABLED').id
    const outcome = submit('update_campaign_budget', ['--campaign-id', id, '--daily-budget', '33'])
    expect(outcome.kind).toBe('executed')
    expect(deps.store.audit.all()).toEqual([expect.objectContaining({
      id: outcome.audit.id, status: 'executed', decision: 'run', rule: expect.any(String), script: 'update_campaign_budget', credits: 5,
      args: ['--campaign-id', id, '--daily-budget', '33'], after: { daily_budget: 33 }, surface: 'rest', workspace_id: 'ws_acme',
    })])
  })

  it('holds without charging; executeWrite later charges, runs exactly the reviewed args once and updates the same entry', () => {
    const id = campaign('PAUSED').id
    const held = submit('enable_campaign', ['--campaign-id', id])
    expect(held).toMatchObject({ kind: 'held', audit: { status: 'pending_review', credits: 0, expires_at: expect.any(String) } })
    expect(balance()).toBe(1000)
    const done = executeWrite(deps, held.audit)
    expect(done).toMatchObject({ kind: 'executed', audit: { id: held.audit.id, status: 'executed', credits: 2 } })
    expect(deps.store.campaigns.get(id)!.status).toBe('ENABLED')
    expect(balance()).toBe(998)
    expect(deps.store.audit.size()).toBe(1)
    expect(deps.store.ledger.all().map((l) => l.audit_id)).toEqual([held.audit.id])
  })

  it('executeWrite throws a 402 before charging, running or recording anything (the write stays reviewable)', () => {
    const held = submit('enable_campaign', ['--campaign-id', campaign('PAUSED').id])
    deps.store.workspaces.update('ws_acme', { credits: { balance: 1, payment_method: true } })
    const before = deps.store.snapshot()
    expect(() => executeWrite(deps, held.audit)).toThrow(expect.objectContaining({ code: 'INSUFFICIENT_CREDITS', status: 402 }))
    expect(deps.store.snapshot()).toEqual(before)
  })

  it('a held write whose target changed meanwhile fails at approval and is refunded', () => {
    const target = campaign('PAUSED')
    const held = submit('enable_campaign', ['--campaign-id', target.id])
    deps.store.campaigns.update(target.id, { status: 'REMOVED' })
    const failed = executeWrite(deps, held.audit)
    expect(failed).toMatchObject({ kind: 'failed', refunded: 2, audit: { status: 'failed', credits: 0 }, error: { code: 'CONFLICT' } })
    expect(balance()).toBe(1000)
    expect(deps.store.ledger.all().map((l) => l.reason)).toEqual(['charge', 'refund'])
  })

  it.each<[string, Partial<ReturnType<typeof defaultPolicy>>, string, (id: string) => string[]]>([
    ['a blocked tool', { block_tools: ['pause_campaign'] }, 'pause_campaign', (id) => ['--campaign-id', id]],
    ['a budget over the monetary limit', { limits: { max_daily_budget: 500, max_budget_increase_pct: null } }, 'update_campaign_budget', (id) => ['--campaign-id', id, '--daily-budget', '900']],
  ])('blocks %s without running, charging or changing anything but the one audit entry', (_what, policy, script, args) => {
    deps.store.workspaces.update('ws_acme', { policy: { ...defaultPolicy(), ...policy } })
    actor = resolveWorkspace(deps, actor)
    const target = campaign('ENABLED')
    const before = deps.store.snapshot()
    const blocked = submit(script, args(target.id))
    expect(blocked).toMatchObject({ kind: 'blocked', audit: { status: 'blocked', decision: 'block', rule: expect.any(String), credits: 0, script } })
    // The write did not run: the campaign is exactly as it was, nothing was charged.
    expect(deps.store.campaigns.get(target.id)).toEqual(target)
    expect(balance()).toBe(1000)
    expect(deps.store.ledger.size()).toBe(0)
    expect(deps.store.audit.all().map((a) => a.id)).toEqual([blocked.audit.id])
    const { audit: _audit, ...rest } = deps.store.snapshot()
    const { audit: _before, ...restBefore } = before
    expect(rest).toEqual(restBefore)
  })
})
