import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../create-sandbox.js'
import { createSandbox } from '../../create-sandbox.js'

const T0 = Date.parse('2026-11-23T12:00:00Z')
let sandbox: RunningSandbox
let paused: string
let keys: Record<string, string>

beforeAll(async () => {
  sandbox = await createSandbox({ wall: () => T0 })
})
afterAll(async () => sandbox.close())
beforeEach(async () => {
  await sandbox.control.reset()
  keys = sandbox.keys
  const campaigns = await call('GET', `${sandbox.apiUrl}/v1/campaigns?status=PAUSED`, keys.owner)
  paused = campaigns.body.campaigns[0].campaign_id
})

async function call(method: string, url: string, key: string | null, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key) headers.authorization = `Bearer ${key}`
  // The control plane is the person's: its calls carry the sandbox's admin token.
  if (url.startsWith(`${sandbox.baseUrl}/_sandbox/`)) headers['x-sandbox-admin'] = sandbox.adminToken ?? ''
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}
const run = (key: string, script_name: string, args: string[]) =>
  call('POST', `${sandbox.baseUrl}/api/v1/tools/run`, key, { script_name, args, platform: 'google' })
const audit = (key: string, id: string) => call('GET', `${sandbox.baseUrl}/api/v1/audit/${id}`, key)
const review = (key: string, id: string, action: 'approve' | 'reject') => call('POST', `${sandbox.baseUrl}/api/v1/audit/${id}/${action}`, key, {})
const controlReview = (id: string, action: 'approve' | 'reject', reviewer = 'Rey') => call('POST', `${sandbox.baseUrl}/_sandbox/reviews/${id}/${action}`, null, { reviewer })
const balance = async () => (await call('GET', `${sandbox.apiUrl}/v1/credits`, keys.owner)).body.balance as number
const campaignStatus = async (id: string) => {
  const list = await call('GET', `${sandbox.apiUrl}/v1/campaigns`, keys.owner)
  return list.body.campaigns.find((c: { campaign_id: string }) => c.campaign_id === id).status as string
}
const holdEnable = async () => {
  const res = await run(keys.agent, 'enable_campaign', ['--campaign-id', paused])
  expect(res.status).toBe(202)
  return res.body.audit_id as string
}

describe('held writes (GATE-01, GATE-03)', () => {
  it('an enable is held: 202 pending_review with audit_id and reviewed_args, nothing ran, nothing charged', async () => {
    const before = await balance()
    const res = await run(keys.agent, 'enable_campaign', ['--campaign-id', paused])
    expect(res).toMatchObject({ status: 202, body: { status: 'pending_review', audit_id: expect.any(String), reviewed_args: ['--campaign-id', paused] } })
    expect(await campaignStatus(paused)).toBe('PAUSED')
    expect(await balance()).toBe(before)
    const entry = await audit(keys.agent, res.body.audit_id)
    expect(entry.body).toMatchObject({ audit_id: res.body.audit_id, status: 'pending_review', decision: 'hold', rule: 'hold.operation', reviewed_args: ['--campaign-id', paused], key_prefix: keys.agent.slice(0, 12) })
    expect(entry.body).not.toHaveProperty('dedupe_key')
  })

  it('a pause runs at once and is audited as executed', async () => {
    const enabled = (await call('GET', `${sandbox.apiUrl}/v1/campaigns?status=ENABLED`, keys.owner)).body.campaigns[0].campaign_id
    const res = await run(keys.agent, 'pause_campaign', ['--campaign-id', enabled])
    expect(res.status).toBe(200)
    expect((await audit(keys.agent, res.body.audit_id)).body).toMatchObject({ status: 'executed', decision: 'run', rule: 'default.run' })
  })
})

describe('approving and rejecting (GATE-04, sandbox decision)', () => {
  it('another key with workspace:write approves: the write runs once with the reviewed args and is charged then', async () => {
    const id = await holdEnable()
    const before = await balance()
    const approved = await review(keys.reviewer, id, 'approve')
    expect(approved).toMatchObject({ status: 200, body: { status: 'executed', audit_id: id, result: { campaign_id: paused } } })
    expect(approved.body.audit.review).toMatchObject({ action: 'approve', by: 'Rey Reviewer' })
    expect(await campaignStatus(paused)).toBe('ENABLED')
    expect(await balance()).toBeLessThan(before)
    const again = await review(keys.reviewer, id, 'approve')
    expect(again).toMatchObject({ status: 409, body: { code: 'REVIEW_NOT_PENDING', audit_status: 'executed' } })
  })

  it.each(['approve', 'reject'] as const)('the submitting key cannot %s its own write: 403 SELF_APPROVAL, nothing changes', async (action) => {
    const [ownerWrite] = [await run(keys.owner, 'enable_campaign', ['--campaign-id', paused])]
    const res = await review(keys.owner, ownerWrite.body.audit_id, action)
    expect(res).toMatchObject({ status: 403, body: { code: 'SELF_APPROVAL' } })
    expect((await audit(keys.owner, ownerWrite.body.audit_id)).body.status).toBe('pending_review')
  })

  it('approval needs workspace:write (403 SCOPE_MISSING)', async () => {
    const id = await holdEnable()
    expect(await review(keys.reporting, id, 'approve')).toMatchObject({ status: 403, body: { code: 'SCOPE_MISSING', scope: 'workspace:write' } })
  })

  it('rejecting runs nothing and charges nothing', async () => {
    const id = await holdEnable()
    const before = await balance()
    expect(await review(keys.reviewer, id, 'reject')).toMatchObject({ status: 200, body: { status: 'rejected' } })
    expect(await campaignStatus(paused)).toBe('PAUSED')
    expect(await balance()).toBe(before)
    expect(await review(keys.reviewer, id, 'approve')).toMatchObject({ status: 409, body: { audit_status: 'rejected' } })
  })

  it('another workspace\'s audit id is 404, like a missing one (KEY-12)', async () => {
    const id = await holdEnable()
    const { user } = (await call('POST', `${sandbox.baseUrl}/_sandbox/users`, null, { email: 'zed@else.test', name: 'Zed' })).body
    await call('POST', `${sandbox.baseUrl}/_sandbox/workspaces`, null, { id: 'ws_else', name: 'Else', owner_user_id: user.id })
    const other = (await call('POST', `${sandbox.baseUrl}/_sandbox/keys`, null, { user_id: user.id, workspace_id: 'ws_else', scopes: ['workspace:read', 'workspace:write'] })).body.key
    expect((await audit(other, id)).status).toBe(404)
    expect((await review(other, id, 'approve')).status).toBe(404)
    expect((await audit(other, 'aud_missing')).status).toBe(404)
  })

  it('a key without workspace:read sees only its own entries', async () => {
    const id = await holdEnable()
    expect((await audit(keys.reporting, id)).status).toBe(404)
    expect((await audit(keys.reviewer, id)).status).toBe(200)
    const own = await call('GET', `${sandbox.baseUrl}/api/v1/audit`, keys.reporting)
    expect(own.body.entries).toHaveLength(0)
    const all = await call('GET', `${sandbox.baseUrl}/api/v1/audit?status=pending_review`, keys.reviewer)
    expect(all.body.entries.map((e: { audit_id: string }) => e.audit_id)).toEqual([id])
  })

  it('two racing approvals run the write exactly once', async () => {
    const id = await holdEnable()
    const before = await balance()
    // The signup key is the submitting agent's user's: refused whatever the race (GATE-04).
    const results = await Promise.all([review(keys.reviewer, id, 'approve'), controlReview(id, 'approve'), review(keys.signup, id, 'approve')])
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 409])
    expect(results[2].body.code).toBe('SELF_APPROVAL')
    const charges = (await call('GET', `${sandbox.apiUrl}/v1/credits`, keys.owner)).body.ledger.filter((l: { audit_id: string }) => l.audit_id === id)
    expect(charges).toHaveLength(1)
    expect(await balance()).toBe(before + charges[0].amount)
  })
})

describe('blocked writes (GATE-02, GATE-05)', () => {
  it('a blocked tool gets 403 status blocked, and the block can be approved by nobody', async () => {
    await sandbox.control.setPolicy('ws_acme', { block_tools: ['enable_campaign'] })
    const res = await run(keys.agent, 'enable_campaign', ['--campaign-id', paused])
    expect(res).toMatchObject({ status: 403, body: { status: 'blocked', code: 'POLICY_BLOCKED', rule: 'block.tool', audit_id: expect.any(String) } })
    for (const attempt of [review(keys.reviewer, res.body.audit_id, 'approve'), controlReview(res.body.audit_id, 'approve')]) {
      const refused = await attempt
      expect(refused).toMatchObject({ status: 409, body: { code: 'REVIEW_NOT_PENDING', audit_status: 'blocked' } })
      expect(refused.body.error).toContain('cannot override a policy block')
    }
    expect(await campaignStatus(paused)).toBe('PAUSED')
  })
})

describe('review expiry by sandbox time', () => {
  it.each([
    ['71h59m59s', 200, 'executed'],
    ['72h', 409, 'expired'],
    ['72h1s', 409, 'expired'],
  ])('approving %s after the hold answers %i (%s)', async (advance, status, final) => {
    const id = await holdEnable()
    await sandbox.control.advanceClock(advance)
    const res = await review(keys.reviewer, id, 'approve')
    expect(res.status).toBe(status)
    expect((await audit(keys.reviewer, id)).body.status).toBe(final)
    expect(await campaignStatus(paused)).toBe(final === 'executed' ? 'ENABLED' : 'PAUSED')
  })

  it('an approval racing the expiry is decided by sandbox time, the same way for every racer', async () => {
    const id = await holdEnable()
    await sandbox.control.advanceClock('72h')
    const results = await Promise.all([review(keys.reviewer, id, 'approve'), controlReview(id, 'approve'), audit(keys.reviewer, id)])
    expect(results[0].body).toMatchObject({ code: 'REVIEW_NOT_PENDING', audit_status: 'expired' })
    expect(results[1].body).toMatchObject({ code: 'REVIEW_NOT_PENDING', audit_status: 'expired' })
    expect(results[2].body.status).toBe('expired')
  })

  it('review_ttl_hours of the policy sets the expiry', async () => {
    await sandbox.control.setPolicy('ws_acme', { review_ttl_hours: 1 })
    const id = await holdEnable()
    expect((await audit(keys.agent, id)).body.expires_at).toBe('2026-11-23T13:00:00.000Z')
    await sandbox.control.advanceClock('1h')
    expect((await call('GET', `${sandbox.baseUrl}/api/v1/audit?status=expired`, keys.agent)).body.entries).toHaveLength(1)
  })
})

describe('control plane: audit and reviews', () => {
  it('a named reviewer approves; the audit log filters by workspace and status', async () => {
    const id = await holdEnable()
    const pending = await call('GET', `${sandbox.baseUrl}/_sandbox/audit?workspace_id=ws_acme&status=pending_review`, null)
    expect(pending.body).toMatchObject({ total: 1, entries: [{ audit_id: id, reviewed_args: ['--campaign-id', paused] }] })
    const approved = await sandbox.control.approve(id, 'Rey (console)')
    expect(approved).toMatchObject({ status: 'executed', audit_id: id })
    expect((await sandbox.control.audit({ status: 'executed' })).entries[0]).toMatchObject({ audit_id: id, review: { by: 'Rey (console)', key_id: null } })
  })

  it.each([
    [{}, 400],
    [{ reviewer: '' }, 400],
    [{ reviewer: 'Rey', extra: 1 }, 400],
  ])('refuses review body %j with %i', async (body, status) => {
    const id = await holdEnable()
    expect((await call('POST', `${sandbox.baseUrl}/_sandbox/reviews/${id}/approve`, null, body)).status).toBe(status)
    expect((await audit(keys.agent, id)).body.status).toBe('pending_review')
  })

  it('an unknown audit id is 404', async () => {
    expect((await controlReview('aud_nope', 'reject')).status).toBe(404)
  })
})
