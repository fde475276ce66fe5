import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ScenarioResult } from '../types.js'
import { actionArbitrary } from './actions.js'
import type { Action, Reach } from './actions.js'
import { assembleScenario, failureKey } from './assemble.js'

const roles = { main: 'main', other: 'other', limited: 'limited', workspace: 'ws_a', otherWorkspace: 'ws_b' }
const sample = (reach: Reach) => fc.sample(actionArbitrary(reach), { seed: 38, numRuns: 400 })

describe('explore actions', () => {
  it('against a deployment without --allow-writes, only read (no write method, no control step)', () => {
    const steps = sample({ roles, writes: false, control: false }).flatMap((a) => a.steps)
    expect(steps.length).toBeGreaterThan(400)
    const methods = new Set(steps.map((s) => String((s.request as { method?: string } | undefined)?.method ?? 'GET')))
    expect([...methods]).toEqual(['GET'])
    expect(steps.filter((s) => s.control !== undefined || s.wait !== undefined)).toEqual([])
  })

  it('with writes and a control plane, try every kind of action', () => {
    const kinds = new Set(sample({ roles, writes: true, control: true }).map((a) => a.kind))
    expect([...kinds].sort()).toEqual(['anonymous', 'budget', 'held-enable', 'isolation', 'key-once', 'pause-twice', 'rate-limit', 'read', 'read-campaign', 'refused', 'scope'])
  })

  it('leave out what needs a credential the target lacks', () => {
    const kinds = new Set(sample({ roles: { main: 'main' }, writes: true, control: false }).map((a) => a.kind))
    expect(kinds.has('scope') || kinds.has('isolation') || kinds.has('rate-limit')).toBe(false)
  })
})

describe('assembling a sequence', () => {
  const pick: Action = { kind: 'x', steps: [{ id: '%%pick', name: '[contract] list campaigns', request: { path: '/a', auth: 'main' }, expect: { status: 200 }, capture: { c: '$.id' } }, { name: '[scope-enforced] refused', request: { path: '/b/${{ %%pick.c }}', auth: 'main' }, expect: { status: 403 } }] }

  it("gives each action's ids their own prefix, so two actions never share a capture", () => {
    const scenario = assembleScenario({ actions: [pick, pick], ignored: new Set(), world: 'w', seed: 1, control: false })
    expect(scenario.steps.map((s) => s.id ?? (s.request as { path: string }).path)).toEqual(['a1_pick', '/b/${{ a1_pick.c }}', 'a2_pick', '/b/${{ a2_pick.c }}'])
  })

  it('drops the check of a violation already found and turns the contract off where that broke it', () => {
    const scenario = assembleScenario({ actions: [pick], ignored: new Set(['scope-enforced@refused', 'contract@list campaigns']), world: 'w', seed: 1, control: false })
    expect(scenario.steps[0].expect).toEqual({ status: 200, contract: 'off' })
    expect(scenario.steps[1].expect).toBeUndefined()
  })
})

describe('the violation a failed run shows', () => {
  const failed = (label: string, reason: string): ScenarioResult => ({
    id: 's', file: 'f', title: 't', covers: [], tags: [], outcome: 'failed', duration_ms: 0,
    steps: [{ index: 0, label, kind: 'request', outcome: 'failed', reason, attempts: 1, duration_ms: 0, violations: [], notes: [] }],
  })

  it.each([
    ['[scope-enforced] refused', 'status: expected 403, got 200', { id: 'scope-enforced@refused', property: 'scope-enforced' }],
    ['[held-write-waits] enabling is held', 'contract: response.body …', { id: 'contract@enabling is held', property: 'contract' }],
    ['[contract] read /v1/me', 'status: expected 200, got 500', { id: 'contract@read /v1/me', property: 'contract' }],
  ])('is the property named by the failing step %s', (label, reason, key) => {
    expect(failureKey(failed(label, reason))).toEqual(key)
  })

  it('is none when a capture an earlier answer should have given is missing', () => {
    expect(failureKey(failed('[scope-enforced] refused', '${{ a1_pick.c }}: `a1_pick.c` is not defined (known: a1_pick)'))).toBeNull()
  })
})
