import { afterEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import type { ConsoleExchange } from './journal-view.js'
import { describeExchange } from './journal-view.js'

let sandbox: Sandbox

afterEach(async () => {
  await sandbox?.close()
})

async function withActivity() {
  sandbox = await buildSandbox({ wall: () => Date.parse('2026-03-02T12:00:00.000Z') })
  const keys = Object.fromEntries(sandbox.ctx.worlds.keys().map((k) => [k.name, k.value]))
  const app = sandbox.baseApp
  const campaign = sandbox.ctx.deps.store.campaigns.all().find((c) => c.status === 'ENABLED')!
  const run = (key: string, script_name: string, args: string[]) =>
    request(app).post('/api/v1/tools/run').set('authorization', `Bearer ${keys[key]}`).send({ script_name, args, platform: 'google' })
  const paused = await run('agent', 'pause_campaign', ['--campaign-id', campaign.id])
  await run('agent', 'get_campaigns', [])
  await request(app).get('/api/v1/keys').set('authorization', `Bearer ${keys.agent}`)
  await request(app).get('/api/v1/nothing-here').set('authorization', `Bearer ${keys.owner}`)
  return { app, pausedAudit: paused.body.audit_id as string }
}

const journal = async (app: Sandbox['baseApp'], query: string) => {
  const res = await request(app).get(`/_sandbox/console/journal${query}`).set('x-sandbox-admin', sandbox.adminToken!)
  return { status: res.status, body: res.body as { entries: ConsoleExchange[]; error?: string; code?: string } }
}

describe('console journal: dispatcher calls named, linked to their audit entry, filterable', () => {
  it('names the script and platform of a dispatcher call and links the audit entry it produced', async () => {
    const { app, pausedAudit } = await withActivity()
    const { body } = await journal(app, '?script=pause')
    expect(body.entries).toHaveLength(1)
    expect(body.entries[0]).toMatchObject({ path: '/api/v1/tools/run', script: 'pause_campaign', platform: 'google', audit_id: pausedAudit, status: 200 })
  })

  it.each([
    ['a status class', '?status=4xx', (e: ConsoleExchange) => e.status >= 400 && e.status < 500],
    ['an exact status', '?status=404', (e: ConsoleExchange) => e.status === 404],
    ['a key prefix', '?key_prefix=svc_test_own', (e: ConsoleExchange) => e.key_prefix === 'svc_test_own'],
    ['a host', '?host=base', (e: ConsoleExchange) => e.host === 'base'],
  ])('filters by %s', async (_name, query, holds) => {
    const { app } = await withActivity()
    const { status, body } = await journal(app, query)
    expect(status).toBe(200)
    expect(body.entries.length).toBeGreaterThan(0)
    expect(body.entries.every(holds)).toBe(true)
  })

  it.each(['4', '4x', '600', 'abc'])('refuses the unsupported status filter %j with a message saying so', async (value) => {
    const { app } = await withActivity()
    const { status, body } = await journal(app, `?status=${value}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'INVALID_REQUEST', error: 'invalid field `status`: use an exact status such as 404 or a class such as 4xx' })
  })

  it.each([
    ['names the script from the kept part of a body the journal cut', '{"script_name":"google_ads_create_customer_match","platform":"google","args":["--emails","a@b', 'google_ads_create_customer_match', 'google'],
    ['names nothing when the cut fell inside the script name', '{"platform":"google","script_name":"enable_camp', null, 'google'],
    ['names nothing from an object that is not a dispatcher call', { truncated: true }, null, null],
  ])('%s', (_name, body, script, platform) => {
    const entry = { request: { headers: {}, body }, response: { headers: {}, body: null } } as unknown as Parameters<typeof describeExchange>[0]
    expect(describeExchange(entry)).toMatchObject({ script, platform, audit_id: null })
  })

  it('names the script of a dispatcher call whose body was over the journal’s cap', async () => {
    const { app } = await withActivity()
    const keys = Object.fromEntries(sandbox.ctx.worlds.keys().map((k) => [k.name, k.value]))
    const huge = ['--campaign-id', '1', '--daily-budget', '5', '--note', 'x'.repeat(80_000)]
    await request(app).post('/api/v1/tools/run').set('authorization', `Bearer ${keys.agent}`).send({ script_name: 'update_campaign_budget', platform: 'google', args: huge })
    const { body } = await journal(app, '?script=update_campaign_budget')
    expect(body.entries).toHaveLength(1)
    expect(body.entries[0]).toMatchObject({ script: 'update_campaign_budget', platform: 'google', request: { truncated: { kept_bytes: 65_536 } } })
  })

  it('refuses an unknown filter instead of ignoring it', async () => {
    const { app } = await withActivity()
    expect(await journal(app, '?colour=red')).toMatchObject({ status: 400, body: { error: 'unknown field `colour`' } })
  })
})

describe('the console journal filter by request id', () => {
  it('finds the one exchange a Request-Id names', async () => {
    const { createSandbox } = await import('../create-sandbox.js')
    const sb = await createSandbox()
    try {
      const a = await fetch(`${sb.apiUrl}/v1/me`, { headers: { authorization: `Bearer ${sb.keys.owner}` } })
      await fetch(`${sb.apiUrl}/v1/me`, { headers: { authorization: `Bearer ${sb.keys.owner}` } })
      const id = a.headers.get('request-id')!
      const res = await fetch(`${sb.baseUrl}/_sandbox/console/journal?request_id=${encodeURIComponent(id)}`, { headers: { 'x-sandbox-admin': sb.adminToken! } })
      const body = (await res.json()) as { entries: Array<{ request_id: string }> }
      expect(body.entries.map((e) => e.request_id)).toEqual([id])
    } finally {
      await sb.close()
    }
  })
})
