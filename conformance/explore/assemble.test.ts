import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ScenarioResult } from '../types.js'
import { actionArbitrary } from './actions.js'
import type { Step } from '../schema.js'
import type { Action, Reach } from './actions.js'
import { assembleScenario, failureKey } from './assemble.js'

const roles = { main: 'main', other: 'other', limited: 'limited', workspace: 'ws_a', otherWorkspace: 'ws_b' }
const sample = (reach: Reach) => fc.sample(actionArbitrary(reach), { seed: 38, numRuns: 400 })
// A hosted MCP's listing: a read tool (its required enum filled from the schema), the pair of writes.
const campaignId = { type: 'object', properties: { campaign_id: { type: 'string' } }, required: ['campaign_id'] }
const mcpTools = [
  { name: 'pull_performance', inputSchema: { properties: { date_range: { enum: ['LAST_7_DAYS'] } }, required: ['date_range'] }, annotations: { readOnlyHint: true } },
  { name: 'pause_campaign', inputSchema: campaignId, annotations: { readOnlyHint: false } },
  { name: 'enable_campaign', inputSchema: campaignId, annotations: { readOnlyHint: false } },
]
const rpcOf = (s: Step) => (s.request as { json?: { method?: string; params?: { name?: string } } }).json

describe('explore actions', () => {
  it('against a deployment without --allow-writes, only read (no write method, no control step, MCP only lists and calls read tools)', () => {
    const steps = sample({ roles, writes: false, control: false, mcpTools }).flatMap((a) => a.steps)
    expect(steps.length).toBeGreaterThan(400)
    const rest = steps.filter((s) => (s.request as { path?: string }).path !== '/mcp')
    const methods = new Set(rest.map((s) => String((s.request as { method?: string } | undefined)?.method ?? 'GET')))
    expect([...methods]).toEqual(['GET'])
    expect(steps.filter((s) => s.control !== undefined || s.wait !== undefined)).toEqual([])
    const calls = new Set(steps.filter((s) => (s.request as { path?: string }).path === '/mcp').map((s) => `${rpcOf(s)?.method} ${rpcOf(s)?.params?.name ?? ''}`.trim()))
    expect([...calls].sort()).toEqual(['tools/call pull_performance', 'tools/list'])
  })

  it('call a listed MCP read tool with the arguments its schema takes', () => {
    const call = sample({ roles, writes: false, control: false, mcpTools }).flatMap((a) => a.steps).map(rpcOf).find((j) => j?.method === 'tools/call')
    expect(call?.params).toEqual({ name: 'pull_performance', arguments: { date_range: 'LAST_7_DAYS' } })
  })

  it('with writes and a control plane, try every kind of action', () => {
    const kinds = new Set(sample({ roles, writes: true, control: true, mcpTools }).map((a) => a.kind))
    expect([...kinds].sort()).toEqual(['anonymous', 'budget', 'held-enable', 'isolation', 'key-once', 'mcp-anonymous', 'mcp-held-enable', 'mcp-read', 'pause-twice', 'rate-limit', 'read', 'read-campaign', 'refused', 'scope'])
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
