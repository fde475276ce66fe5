import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEYS, startSandbox } from '../../test-support/http.js'

/**
 * Key expiry is judged on the clock of the workspace the key acts in (issue 19): a workspace whose
 * own test clock passed a key's `expires_at` no longer lists it, while the sandbox clock has not
 * moved (issue 36: a key listing reading the sandbox clock was caught only by the slow suite).
 */
let sb: TestSandbox
beforeAll(async () => {
  // A fixed wall time: the sandbox clock stands still unless moved.
  sb = await startSandbox({ wall: () => Date.parse('2026-11-23T12:00:00Z') })
})
afterAll(async () => sb.close())

const names = async () => ((await sb.base('GET', '/api/v1/keys', { key: KEYS.owner })).body.keys as Array<{ name: string }>).map((k) => k.name)

describe('key expiry reads the workspace\'s own clock', () => {
  it('a key expired on the workspace clock is neither listed nor revocable, though the sandbox clock has not moved', async () => {
    const created = await sb.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'one-day', scopes: ['tools:read'], expires_in_days: 1 } })
    expect(created.status).toBe(201)
    expect(await names()).toContain('one-day')
    const sandboxNow = (await sb.control.clock()).now
    expect((await sb.base('POST', '/_sandbox/workspaces/ws_acme/clock', { body: { advance: '2d' } })).status).toBe(200)
    expect((await sb.control.clock()).now).toBe(sandboxNow)
    expect(await names()).not.toContain('one-day')
    expect(await names()).toContain('owner')
    expect((await sb.base('DELETE', `/api/v1/keys/${created.body.id}`, { key: KEYS.owner })).status).toBe(404)
  })
})
