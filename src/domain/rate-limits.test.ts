import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Deps } from './ports.js'
import type { RateLimits } from './model.js'
import { authenticate, resolveWorkspace } from './access.js'
import { setRateLimits, takeToken } from './rate-limits.js'
import { SandboxError } from './errors.js'

/**
 * `Retry-After` is the smallest whole number of seconds after which a retry succeeds (ERR-03,
 * ERR-04): rounded up, never to the nearest (a 1.4 s wait is 2, not 1), and the longer of the key's
 * and the workspace's waits (issue 36: both mutants survived, every test used whole-second waits
 * and one bucket). Each case empties its buckets, then retries one second before `Retry-After`
 * (still 429) and at it (succeeds), on a frozen sandbox clock moved by hand.
 */
const OWNER = 'svc_test_ownerAcme00000000000000000000000'
const T0 = Date.parse('2026-11-23T12:00:00Z')
let sandbox: Sandbox
let deps: Deps

beforeEach(async () => {
  sandbox = await buildSandbox({ wall: () => T0 })
  deps = sandbox.ctx.deps
})
afterEach(async () => sandbox.close())

const actor = () => resolveWorkspace(deps, authenticate(deps, OWNER))

function refusal(): SandboxError {
  try {
    takeToken(deps, actor())
  } catch (error) {
    if (error instanceof SandboxError) return error
    throw error
  }
  throw new Error('expected 429 RATE_LIMITED, the token was taken')
}

const CASES: Array<[string, Partial<RateLimits>, number, 'key' | 'workspace']> = [
  ['a 1.4 s wait on the key is 2 s', { per_key: { capacity: 1, refill_per_second: 1 / 1.4 } }, 2, 'key'],
  ['a 2.2 s wait on the workspace is 3 s', { per_workspace: { capacity: 1, refill_per_second: 1 / 2.2 } }, 3, 'workspace'],
  ['key 1.4 s and workspace 10.3 s: the workspace\'s 11 s', { per_key: { capacity: 1, refill_per_second: 1 / 1.4 }, per_workspace: { capacity: 1, refill_per_second: 1 / 10.3 } }, 11, 'workspace'],
  ['key 7.6 s and workspace 0.5 s: the key\'s 8 s', { per_key: { capacity: 1, refill_per_second: 1 / 7.6 }, per_workspace: { capacity: 1, refill_per_second: 2 } }, 8, 'key'],
]

describe('Retry-After: the smallest whole-second wait after which a retry succeeds', () => {
  it.each(CASES)('%s', (_name, limits, seconds, scope) => {
    setRateLimits(deps, 'ws_acme', { per_key: null, per_workspace: null, ...limits })
    takeToken(deps, actor())
    const first = refusal()
    expect(first.details).toMatchObject({ retry_after: seconds, scope })
    expect(first.headers['Retry-After']).toBe(String(seconds))
    sandbox.ctx.clock.advance((seconds - 1) * 1000)
    expect(refusal().code).toBe('RATE_LIMITED')
    sandbox.ctx.clock.advance(1000)
    expect(() => takeToken(deps, actor())).not.toThrow()
  })
})
