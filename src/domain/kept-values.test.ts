import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Deps } from './ports.js'
import type { Caller } from './access.js'
import { authenticate } from './access.js'
import { dispatch, outcomeBody } from './dispatcher.js'
import { keepUnchanged } from './kept-values.js'

const OWNER = 'svc_test_ownerAcme00000000000000000000000'

let sandbox: Sandbox
let deps: Deps
let owner: Caller

beforeEach(async () => {
  sandbox = await buildSandbox()
  deps = sandbox.ctx.deps
  owner = authenticate(deps, OWNER)
  deps.store.workspaces.update('ws_acme', { policy: { ...deps.store.workspaces.get('ws_acme')!.policy, hold: [] } })
})
afterEach(() => sandbox.close())

const run = (script_name: string, args: string[] = []) => outcomeBody(dispatch(deps, owner, { script_name, args, platform: 'google', surface: 'rest' }))

describe('list_campaigns answered again while nothing changed', () => {
  it('is the very same frozen body, with every field a fresh computation gives', () => {
    const first = run('list_campaigns')
    const again = run('list_campaigns')
    expect(again).toEqual(first)
    expect(run('list_campaigns')).toBe(again)
    expect(Object.isFrozen(again)).toBe(true)
    expect(again).toMatchObject({ platform: 'google', date_range: 'LAST_30_DAYS', sandbox: true, credits_used: expect.any(Number) })
    expect(again.total_campaigns).toBe((again.campaigns as unknown[]).length)
  })

  it('is a new body once a campaign in it changed, showing the change', () => {
    const first = run('list_campaigns') as { campaigns: Array<{ campaign_id: string; daily_budget: number }> }
    const id = first.campaigns[0].campaign_id
    run('update_campaign_budget', ['--campaign-id', id, '--daily-budget', '123.5'])
    const after = run('list_campaigns') as typeof first
    expect(after).not.toBe(first)
    expect(after.campaigns.find((row) => row.campaign_id === id)!.daily_budget).toBe(123.5)
    expect(first.campaigns.find((row) => row.campaign_id === id)!.daily_budget).not.toBe(123.5)
  })

  it('keeps one body per filter and limit, never answering one with another', () => {
    run('list_campaigns')
    run('list_campaigns', ['--status', 'enabled'])
    run('list_campaigns', ['--limit', '2'])
    const all = run('list_campaigns')
    const enabled = run('list_campaigns', ['--status', 'enabled'])
    const two = run('list_campaigns', ['--limit', '2'])
    expect(run('list_campaigns', ['--status', 'enabled'])).toBe(enabled)
    expect(run('list_campaigns', ['--limit', '2'])).toBe(two)
    expect(run('list_campaigns')).toBe(all)
    expect((two.campaigns as unknown[]).length).toBe(2)
    expect((enabled.campaigns as Array<{ status: string }>).every((row) => row.status === 'ENABLED')).toBe(true)
  })
})

describe('the body of a kept read result', () => {
  it('is kept per cost: the same frozen result at another cost gets a body with that cost', () => {
    const result = Object.freeze({ platform: 'google', rows: [] })
    const one = outcomeBody({ kind: 'read', result, credits_used: 1 })
    expect(outcomeBody({ kind: 'read', result, credits_used: 1 })).toBe(one)
    const two = outcomeBody({ kind: 'read', result, credits_used: 2 })
    expect(two).toEqual({ platform: 'google', rows: [], credits_used: 2, sandbox: true })
    expect(one).toEqual({ platform: 'google', rows: [], credits_used: 1, sandbox: true })
  })

  it('is built afresh for a result that is not frozen', () => {
    const result = { platform: 'google' }
    expect(outcomeBody({ kind: 'read', result, credits_used: 1 })).not.toBe(outcomeBody({ kind: 'read', result, credits_used: 1 }))
  })
})

describe('keepUnchanged', () => {
  type Value = { n: number }
  const options = { same: (a: Value, b: Value) => a.n === b.n, freeze: (v: Value): Value => Object.freeze(v) }

  it('hands back the kept value, frozen, from the second ask on while it is the same', () => {
    const asked = { n: 1 }
    // Asked once: the value itself, not frozen (a list that changes at every ask is never frozen).
    expect(keepUnchanged<Value>(deps, 'k', asked, options)).toBe(asked)
    expect(Object.isFrozen(asked)).toBe(false)
    const again = keepUnchanged<Value>(deps, 'k', { n: 1 }, options)
    expect(Object.isFrozen(again)).toBe(true)
    expect(keepUnchanged<Value>(deps, 'k', { n: 1 }, options)).toBe(again)
    const changed = { n: 2 }
    expect(keepUnchanged<Value>(deps, 'k', changed, options)).toBe(changed)
    expect(keepUnchanged<Value>(deps, 'k', { n: 2 }, options)).toBe(changed)
  })

  it('keeps values apart per store', async () => {
    const other = await buildSandbox()
    try {
      const here = keepUnchanged<Value>(deps, 'k', { n: 1 }, options)
      expect(keepUnchanged<Value>(other.ctx.deps, 'k', { n: 1 }, options)).not.toBe(here)
    } finally {
      await other.close()
    }
  })
})
