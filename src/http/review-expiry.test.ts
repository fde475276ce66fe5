import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

/**
 * Held writes expire for good (sandbox decision on the review TTL, GATE-02/04 review rules): once
 * the clock has passed `expires_at` the review is recorded `expired`, even if nobody read it, and
 * moving the clock back (sandbox clock or the workspace's own clock) never revives it. Every path
 * that reads or decides a review is tried after the clock went back.
 */
const T0 = Date.parse('2026-11-23T12:00:00Z')
let sb: TestSandbox
let paused: string
// The wall clock the sandbox clock runs on when not frozen; a test may move it.
let wall = T0

beforeAll(async () => {
  sb = await startSandbox({ wall: () => wall })
})
afterAll(async () => sb.close())
beforeEach(async () => {
  wall = T0
  await sb.control.reset()
  paused = (await sb.api('GET', '/v1/campaigns?status=PAUSED', { key: KEYS.owner })).body.campaigns[0].campaign_id
})

async function holdEnable(): Promise<string> {
  const held = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.agent, body: { script_name: 'enable_campaign', args: ['--campaign-id', paused], platform: 'google' } })
  expect(held.body).toMatchObject({ status: 'pending_review', expires_at: '2026-11-26T12:00:00.000Z' })
  return held.body.audit_id as string
}
const clock = (body: Record<string, unknown>) => sb.base('POST', '/_sandbox/clock', { body })
const workspaceClock = (method: string, body?: Record<string, unknown>) => sb.base(method, '/_sandbox/workspaces/ws_acme/clock', body ? { body } : {})

/** Every path that reads or decides a review, each expected to find it expired and run nothing. */
async function expectExpiredEverywhere(id: string): Promise<void> {
  expect((await sb.base('GET', `/api/v1/audit/${id}`, { key: KEYS.owner })).body).toMatchObject({ audit_id: id, status: 'expired' })
  const pending = (await sb.base('GET', '/api/v1/audit?status=pending_review', { key: KEYS.owner })).body
  expect(pending.entries.map((e: { audit_id: string }) => e.audit_id)).not.toContain(id)
  const queue = (await sb.base('GET', '/_sandbox/console/queue')).body
  expect(queue.entries.map((e: { audit_id: string }) => e.audit_id)).not.toContain(id)
  expect(await sb.base('POST', `/_sandbox/reviews/${id}/approve`, { body: { reviewer: 'Rey' } })).toMatchObject({ status: 409, body: { code: 'REVIEW_NOT_PENDING', audit_status: 'expired' } })
  expect(await sb.base('POST', `/api/v1/audit/${id}/approve`, { key: KEYS.reviewer, body: {} })).toMatchObject({ status: 409, body: { code: 'REVIEW_NOT_PENDING', audit_status: 'expired' } })
  expect(await sb.base('POST', `/api/v1/audit/${id}/reject`, { key: KEYS.reviewer, body: {} })).toMatchObject({ status: 409, body: { code: 'REVIEW_NOT_PENDING' } })
  expect((await sb.api('GET', `/v1/campaigns/${paused}`, { key: KEYS.owner })).body).toMatchObject({ status: 'PAUSED' })
}

describe('an expired review stays expired when the clock goes back', () => {
  it.each([
    ['advanced past expiry, then set back to before it', [{ advance: '73h' }, { set: '2026-11-23T12:00:00Z' }]],
    ['set past expiry, then set back', [{ set: '2026-11-27T00:00:00Z' }, { set: '2026-11-24T00:00:00Z' }]],
    ['frozen, advanced past expiry, then set back and unfrozen', [{ freeze: true }, { advance: '72h' }, { set: '2026-11-23T13:00:00Z', freeze: false }]],
  ])('sandbox clock %s: never read in between, the review is expired on every path', async (_name, moves) => {
    const id = await holdEnable()
    for (const move of moves) expect((await clock(move)).status).toBe(200)
    await expectExpiredEverywhere(id)
  })

  it.each([
    ['set back', { set: '2026-11-23T12:00:00Z' }],
    ['released to the sandbox clock', null],
  ])('a workspace clock moved past expiry and then %s leaves the review expired', async (_name, back) => {
    const id = await holdEnable()
    expect((await workspaceClock('POST', { advance: '80h' })).status).toBe(200)
    expect((await (back ? workspaceClock('POST', back) : workspaceClock('DELETE'))).status).toBe(200)
    await expectExpiredEverywhere(id)
  })

  it('wall time running past expiry, then the clock set back: the review is expired on every path', async () => {
    const id = await holdEnable()
    wall = T0 + 73 * 3_600_000
    expect((await clock({ set: '2026-11-23T12:00:00Z' })).status).toBe(200)
    await expectExpiredEverywhere(id)
  })

  it('a review the clock has not reached stays pending when the clock goes back, and can be approved', async () => {
    const id = await holdEnable()
    expect((await clock({ advance: '71h' })).status).toBe(200)
    expect((await clock({ set: '2026-11-23T12:00:00Z' })).status).toBe(200)
    expect((await sb.base('GET', `/api/v1/audit/${id}`, { key: KEYS.owner })).body).toMatchObject({ status: 'pending_review' })
    expect(await sb.base('POST', `/api/v1/audit/${id}/approve`, { key: KEYS.reviewer, body: {} })).toMatchObject({ status: 200 })
    expect((await sb.api('GET', `/v1/campaigns/${paused}`, { key: KEYS.owner })).body).toMatchObject({ status: 'ENABLED' })
  })

  it('moving the clock past expiry records it at once: the audit entry is expired before anyone reads it', async () => {
    const id = await holdEnable()
    expect((await clock({ advance: '72h' })).status).toBe(200)
    const state = JSON.parse(await sb.stateText())
    const stored = JSON.stringify(state).includes(`"id":"${id}"`) ? findRow(state, id) : null
    expect(stored).toMatchObject({ status: 'expired' })
  })
})

// The audit row with `id` anywhere in the exported state.
function findRow(value: unknown, id: string): Record<string, unknown> | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findRow(item, id)
      if (found) return found
    }
  } else if (value && typeof value === 'object') {
    const row = value as Record<string, unknown>
    if (row.id === id && 'status' in row) return row
    for (const child of Object.values(row)) {
      const found = findRow(child, id)
      if (found) return found
    }
  }
  return null
}
