import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

/**
 * Issue 19 item 1: every time rule reads the clock of the workspace concerned. Client A and Client
 * B start at the same instant; only A's clock moves, and each rule diverges between the two.
 */
let sb: TestSandbox
const A: { ws: string; key: string } = { ws: 'ws_client_a', key: KEYS.alexClientA }
const B = { ws: 'ws_client_b', key: KEYS.alexClientB }
const advanceA = (advance: string) => sb.control.changeWorkspaceClock(A.ws, { advance })
const run = (key: string, script_name: string, args: string[]) => sb.base('POST', '/api/v1/tools/run', { key, body: { script_name, args, platform: 'google' } })
const pausedCampaign = async (key: string) => {
  const list = (await sb.api('GET', '/v1/campaigns?limit=100&status=PAUSED', { key })).body.campaigns as Array<{ campaign_id: string }>
  return list[0].campaign_id
}

beforeAll(async () => {
  sb = await startSandbox({ world: 'multi-workspace' })
})
afterAll(() => sb.close())
beforeEach(async () => {
  await sb.control.reset('multi-workspace')
  await sb.control.freezeClock()
  await sb.control.setClock('2031-05-05T12:00:00.000Z') // a Monday
})

describe('two workspaces, two clocks', () => {
  it('review TTL: a held write expires in the workspace whose clock passed its TTL, not in the other', async () => {
    const held = await Promise.all([A, B].map(async (w) => (await run(w.key, 'enable_campaign', ['--campaign-id', await pausedCampaign(w.key)])).body))
    expect(held.map((h) => h.status)).toEqual(['pending_review', 'pending_review'])
    await advanceA('73h')
    const status = async (id: string) => (await sb.base('GET', `/_sandbox/audit/${id}`)).body.status
    expect([await status(held[0].audit_id), await status(held[1].audit_id)]).toEqual(['expired', 'pending_review'])
    const approveA = await sb.base('POST', `/_sandbox/reviews/${held[0].audit_id}/approve`, { body: { reviewer: 'Rey' } })
    expect(approveA.body).toMatchObject({ code: 'REVIEW_NOT_PENDING', audit_status: 'expired' })
    const rejectB = await sb.base('POST', `/_sandbox/reviews/${held[1].audit_id}/reject`, { body: { reviewer: 'Rey' } })
    expect(rejectB.body.status).toBe('rejected')
  })

  it('connect links: a link expires 30 minutes after creation on its workspace clock only', async () => {
    const start = (key: string) => sb.base('POST', '/api/v1/connections/start', { key, body: { platform: 'google' } })
    const [linkA, linkB] = [(await start(A.key)).body, (await start(B.key)).body]
    await advanceA('31m')
    const page = (url: string) => fetch(url, { headers: { accept: 'application/json' } }).then((r) => r.status)
    expect([await page(linkA.url), await page(linkB.url)]).toEqual([410, 200])
    // A link made now is stamped with A's time: it expires 30 minutes after A's now.
    const later = (await start(A.key)).body
    expect(later.created_at).toBe('2031-05-05T12:31:00.000Z')
  })

  it('key expiry: a pinned key reads its workspace clock, an unpinned key the workspace it acts in', async () => {
    const mint = async (user_id: string, workspace_id: string | null) =>
      (await sb.base('POST', '/_sandbox/keys', { body: { user_id, workspace_id, scopes: ['campaigns:read'], expires_in_days: 1 } })).body.key as string
    const pinnedA = await mint('usr_alex', A.ws)
    const pinnedB = await mint('usr_alex', B.ws)
    const unpinnedCasey = await mint('usr_casey', null) // Casey's one workspace is Client A
    await advanceA('25h')
    const me = async (key: string) => (await sb.api('GET', '/v1/campaigns?limit=1', { key })).status
    expect([await me(pinnedA), await me(pinnedB), await me(unpinnedCasey)]).toEqual([401, 200, 401])
    await sb.control.releaseWorkspaceClock(A.ws)
    expect([await me(pinnedA), await me(unpinnedCasey)]).toEqual([200, 200])
  })

  it('operating hours: a write is blocked where the workspace clock is outside the hours', async () => {
    const hours = { operating_hours: { timezone: 'UTC', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' } }
    for (const w of [A, B]) await sb.base('PUT', `/_sandbox/workspaces/${w.ws}/policy`, { body: hours })
    await advanceA('8h') // 20:00 in A, 12:00 in B
    const enabled = async (key: string) => ((await sb.api('GET', '/v1/campaigns?limit=100&status=ENABLED', { key })).body.campaigns as Array<{ campaign_id: string }>)[0].campaign_id
    const pause = async (w: typeof A) => (await run(w.key, 'pause_campaign', ['--campaign-id', await enabled(w.key)])).status
    expect([await pause(A), await pause(B)]).toEqual([403, 200])
  })

  it('rate-limit refill: an empty bucket refills as its workspace clock advances', async () => {
    for (const w of [A, B]) await sb.base('PUT', `/_sandbox/workspaces/${w.ws}/rate-limits`, { body: { per_key: null, per_workspace: { capacity: 1, refill_per_second: 0.1 } } })
    const read = async (key: string) => (await sb.api('GET', '/v1/campaigns?limit=1', { key })).status
    expect([await read(A.key), await read(A.key), await read(B.key), await read(B.key)]).toEqual([200, 429, 200, 429])
    await advanceA('10s')
    expect([await read(A.key), await read(B.key)]).toEqual([200, 429])
  })

  it('metrics accrue and artifacts expire on the workspace clock', async () => {
    const id = await pausedCampaign(A.key)
    const before = (await sb.api('GET', `/v1/campaigns/${id}/metrics`, { key: A.key })).body.date_range.end_date
    await advanceA('3d')
    const after = (await sb.api('GET', `/v1/campaigns/${id}/metrics`, { key: A.key })).body.date_range.end_date
    expect(Date.parse(after) - Date.parse(before)).toBe(3 * 86_400_000)
    const other = await pausedCampaign(B.key)
    expect((await sb.api('GET', `/v1/campaigns/${other}/metrics`, { key: B.key })).body.date_range.end_date).toBe(before)
    const stage = (key: string) => sb.api('POST', '/artifacts/audience-sync-input', { headers: { 'x-service-key': key }, body: { body: ['a'.repeat(64)], ttl_seconds: 60 } })
    const [artA, artB] = [(await stage(A.key)).body, (await stage(B.key)).body]
    expect([artA.expires_at, artB.expires_at]).toEqual(['2031-05-08T12:01:00.000Z', '2031-05-05T12:01:00.000Z'])
  })
})
