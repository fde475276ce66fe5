import { afterEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import type { AuditEntry, Campaign } from '../domain/model.js'

const TOKEN = 'console-test-token'
let sandbox: Sandbox

afterEach(async () => {
  await sandbox?.close()
})

// Without a token the control plane is opened on purpose: those tests are about what the routes answer, not the door.
async function build(adminToken?: string): Promise<Sandbox> {
  sandbox = await buildSandbox({ ...(adminToken ? { adminToken } : { openControlPlane: true }), wall: () => Date.parse('2026-03-02T12:00:00.000Z') })
  return sandbox
}

function held(patch: Partial<AuditEntry>): AuditEntry {
  const key = sandbox.ctx.deps.store.keys.find((k) => k.name === 'agent')!
  return {
    id: 'aud_1', at: '2026-03-02T11:00:00.000Z', workspace_id: 'ws_acme', key_id: key.id, key_prefix: key.prefix, user_id: key.user_id,
    surface: 'rest', script: 'enable_campaign', args: ['--campaign-id', '1234567890'], platform: 'google', operation: 'enable',
    decision: 'hold', reason: 'The policy holds enable operations for review.', rule: 'hold.operation', status: 'pending_review', credits: 5,
    before: null, after: null, result: null, expires_at: '2026-03-05T11:00:00.000Z', review: null, ...patch,
  } as AuditEntry
}

describe('console pages and routes', () => {
  it('serves the console shell without the admin token, with a strict content security policy', async () => {
    const app = (await build(TOKEN)).baseApp
    const redirect = await request(app).get('/_sandbox/console')
    expect(redirect.status).toBe(301)
    expect(redirect.headers.location).toBe('/_sandbox/console/')
    const page = await request(app).get('/_sandbox/console/')
    expect(page.status).toBe(200)
    expect(page.text).toContain('<label for="admin-token">Admin token</label>')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    const script = await request(app).get('/_sandbox/console/js/app.js')
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toMatch(/javascript/)
  })

  it.each(['/_sandbox/console/overview', '/_sandbox/console/queue', '/_sandbox/console/transcript'])('%s needs the admin token when one is set', async (path) => {
    const app = (await build(TOKEN)).baseApp
    const refused = await request(app).get(path)
    expect(refused.status).toBe(401)
    expect(refused.body.code).toBe('ADMIN_TOKEN_REQUIRED')
    const allowed = await request(app).get(path).set('X-Sandbox-Admin', TOKEN)
    expect(allowed.status).toBe(200)
  })

  it('shows keys by prefix only: the world view holds no key value and no hash', async () => {
    const sb = await build()
    const res = await request(sb.baseApp).get('/_sandbox/console/overview')
    expect(res.status).toBe(200)
    const acme = res.body.workspaces.find((w: { id: string }) => w.id === 'ws_acme')
    expect(acme.keys.map((k: { name: string }) => k.name)).toEqual(expect.arrayContaining(['owner', 'agent', 'reviewer', 'reporting']))
    expect(acme.keys.every((k: { prefix: string }) => k.prefix.length === 12)).toBe(true)
    for (const key of sb.ctx.worlds.keys()) expect(res.text).not.toContain(key.value)
    expect(res.text).not.toMatch(/"hash"/)
    expect(res.body.unpinned_keys.map((k: { name: string }) => k.name)).toContain('signup')
  })

  it('lists pending writes oldest first with names; decided ones are left out and timed-out ones expire', async () => {
    const sb = await build()
    const { store } = sb.ctx.deps
    store.audit.insert(held({ id: 'aud_new', at: '2026-03-02T11:30:00.000Z' }))
    store.audit.insert(held({ id: 'aud_old', at: '2026-03-02T10:00:00.000Z' }))
    store.audit.insert(held({ id: 'aud_done', status: 'rejected' }))
    store.audit.insert(held({ id: 'aud_timed_out', expires_at: '2026-03-02T11:59:00.000Z' }))
    const res = await request(sb.baseApp).get('/_sandbox/console/queue')
    expect(res.body.entries.map((e: { id: string }) => e.id)).toEqual(['aud_old', 'aud_new'])
    expect(res.body.entries[0]).toMatchObject({ user_name: 'Olivia Owner', key_name: 'agent', workspace_name: 'Acme Outdoor' })
    expect(store.audit.get('aud_timed_out')?.status).toBe('expired')
    expect(res.body.entries[0].cost).toBeGreaterThan(0)
  })

  it('offers the transcript as a JSON download and refuses a bad window with 400', async () => {
    const sb = await build()
    sb.ctx.deps.store.audit.insert(held({ id: 'aud_x' }))
    const res = await request(sb.baseApp).get('/_sandbox/console/transcript?download=1&from=2026-03-02T00:00:00Z')
    expect(res.status).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="agent-transcript-.*\.json"$/)
    expect(res.body.totals).toMatchObject({ attempted: 1, held: 1, pending: 1 })
    const bad = await request(sb.baseApp).get('/_sandbox/console/transcript?from=yesterday')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: 'INVALID_REQUEST', field: 'from' })
    const unknown = await request(sb.baseApp).get('/_sandbox/console/transcript?key=svc_test_age')
    expect(unknown.status).toBe(400)
  })

  it('gives a campaign’s daily spend and clicks for the chart, and 404 for an unknown campaign', async () => {
    const sb = await build()
    const at = '2026-01-01T00:00:00.000Z'
    const campaign: Campaign = {
      id: '9000000001', workspace_id: 'ws_acme', connection_id: 'conn_google_acme', platform: 'google', campaign_name: 'Chart test',
      channel_type: 'SEARCH', status: 'ENABLED', daily_budget: 100, currency: 'USD', bidding_strategy: 'MANUAL_CPC', created_at: at,
      status_history: [{ at, status: 'ENABLED' }], budget_history: [{ at, daily_budget: 100 }], seed: 7,
    }
    sb.ctx.deps.store.campaigns.insert(campaign)
    const res = await request(sb.baseApp).get('/_sandbox/console/campaigns/9000000001/series?days=7')
    expect(res.status).toBe(200)
    expect(res.body.days.map((d: { date: string }) => d.date)).toEqual(['2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'])
    // Full days spend 72-100 % of the 100 USD budget; today is half over at 12:00.
    for (const day of res.body.days.slice(0, 6)) expect(day.cost).toBeGreaterThan(60)
    expect(res.body.days[6].cost).toBeLessThan(60)
    expect(res.body.days.every((d: { clicks: number }) => d.clicks > 0)).toBe(true)
    const missing = await request(sb.baseApp).get('/_sandbox/console/campaigns/nope/series')
    expect(missing.status).toBe(404)
  })
})
