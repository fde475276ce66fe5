import { afterEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import type { LedgerEntry } from '../domain/model.js'
import type { AccountSeries } from './series.js'

let sandbox: Sandbox
afterEach(async () => {
  await sandbox?.close()
})

const NOW = Date.parse('2026-03-02T12:00:00.000Z')

function ledgerRow(at: string, amount: number, balance_after: number, reason: LedgerEntry['reason']): LedgerEntry {
  return { id: `led_${at}`, at, workspace_id: 'ws_acme', key_id: null, script: 'x', amount, balance_after, reason, audit_id: null }
}

describe('console series: account totals and credits over time for the charts', () => {
  it('sums the account’s campaigns per day, marks today partial, and rebuilds the credit balance per day from the ledger', async () => {
    sandbox = await buildSandbox({ wall: () => NOW })
    const store = sandbox.ctx.deps.store
    for (const row of [ledgerRow('2026-02-20T10:00:00.000Z', -5, 995, 'charge'), ledgerRow('2026-02-28T10:00:00.000Z', -20, 975, 'charge'), ledgerRow('2026-02-28T11:00:00.000Z', 20, 995, 'refund'), ledgerRow('2026-03-01T09:00:00.000Z', -2, 993, 'charge')]) {
      store.ledger.insert(row)
    }
    const res = await request(sandbox.baseApp).get('/_sandbox/console/workspaces/ws_acme/series?days=7').set('x-sandbox-admin', sandbox.adminToken!)
    expect(res.status).toBe(200)
    const body = res.body as AccountSeries
    expect(body.partial_date).toBe('2026-03-02')
    expect(body.days.map((d) => d.date)).toEqual(['2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'])
    const perCampaign = await Promise.all(store.campaigns.filter((c) => c.workspace_id === 'ws_acme').map(async (c) =>
      (await request(sandbox.baseApp).get(`/_sandbox/console/campaigns/${c.id}/series?days=7`).set('x-sandbox-admin', sandbox.adminToken!)).body.days as Array<{ clicks: number }>))
    expect(body.days.map((d) => d.clicks)).toEqual(body.days.map((_, i) => perCampaign.reduce((a, days) => a + days[i].clicks, 0)))
    expect(body.credits.map((d) => d.balance)).toEqual([995, 995, 995, 995, 995, 993, 993])
    expect(body.credits[4]).toMatchObject({ charged: 20, refunded: 20 })
  })

  it.each([['an unknown workspace', '/workspaces/nope/series', 404], ['a window over 90 days', '/workspaces/ws_acme/series?days=91', 400]])('answers %s with a clear error', async (_name, path, status) => {
    sandbox = await buildSandbox({ wall: () => NOW })
    const res = await request(sandbox.baseApp).get(`/_sandbox/console${path}`).set('x-sandbox-admin', sandbox.adminToken!)
    expect(res.status).toBe(status)
    expect(res.body.code).toMatch(/NOT_FOUND|INVALID_REQUEST/)
  })

  it('serves the vendored uPlot files under the console’s CSP, and nothing else from its folder', async () => {
    sandbox = await buildSandbox({ wall: () => NOW })
    const js = await request(sandbox.baseApp).get('/_sandbox/console/vendor/uPlot.iife.min.js')
    expect(js.status).toBe(200)
    expect(js.headers['content-type']).toContain('javascript')
    expect(js.headers['content-security-policy']).toContain("script-src 'self'")
    expect((await request(sandbox.baseApp).get('/_sandbox/console/vendor/uPlot.min.css')).status).toBe(200)
    // Any other file falls through to the control plane: the token first (401), then no such route (404).
    expect((await request(sandbox.baseApp).get('/_sandbox/console/vendor/uPlot.esm.js')).status).toBe(401)
    expect((await request(sandbox.baseApp).get('/_sandbox/console/vendor/uPlot.esm.js').set('x-sandbox-admin', sandbox.adminToken!)).status).toBe(404)
  })
})
