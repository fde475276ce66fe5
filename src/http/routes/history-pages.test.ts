import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEYS, startSandbox } from '../../test-support/http.js'

let dir: string
let sb: TestSandbox
let campaign: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-pages-'))
  sb = await startSandbox({ state: join(dir, 'state.json') })
  campaign = (await sb.api('GET', '/v1/campaigns?status=ENABLED', { key: KEYS.owner })).body.campaigns[0].campaign_id
})
afterEach(async () => {
  await sb.close()
  await rm(dir, { recursive: true, force: true })
})

async function budgetChanges(count: number, from = 0): Promise<string[]> {
  const ids: string[] = []
  for (let i = from; i < from + count; i++) {
    const res = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'update_campaign_budget', args: ['--campaign-id', campaign, '--daily-budget', String(50 + (i % 2))], platform: 'google' } })
    expect(res.status).toBe(200)
    ids.push(res.body.audit_id)
  }
  return ids
}

describe('paged history reads with cursors', () => {
  it('continues an audit listing from next_cursor after more entries were written, without repeating or skipping one', async () => {
    const written = await budgetChanges(25)
    const first = await sb.base('GET', '/api/v1/audit?limit=10', { key: KEYS.owner })
    expect(first.body).toMatchObject({ has_more: true, total: 25, next_cursor: expect.stringMatching(/^s[0-9a-z]+$/) })
    await budgetChanges(5, 25)
    const second = await sb.base('GET', `/api/v1/audit?limit=10&cursor=${first.body.next_cursor}`, { key: KEYS.owner })
    const third = await sb.base('GET', `/api/v1/audit?limit=10&cursor=${second.body.next_cursor}`, { key: KEYS.owner })
    const seen = [first, second, third].flatMap((page) => page.body.entries.map((e: { audit_id: string }) => e.audit_id))
    expect(seen).toEqual([...written].reverse())
    expect(third.body).toMatchObject({ has_more: false, next_cursor: null })
  })

  it('pages the /v1/credits ledger newest first with limit and cursor', async () => {
    await budgetChanges(6)
    const all = await sb.api('GET', '/v1/credits?limit=1000', { key: KEYS.owner })
    const first = await sb.api('GET', '/v1/credits?limit=4', { key: KEYS.owner })
    expect(first.body.ledger).toEqual(all.body.ledger.slice(0, 4))
    const next = await sb.api('GET', `/v1/credits?limit=4&cursor=${first.body.ledger_next_cursor}`, { key: KEYS.owner })
    expect(next.body.ledger).toEqual(all.body.ledger.slice(4, 8))
    expect(first.body.used_by_key).toBe(all.body.used_by_key)
  })

  it.each([
    ['/api/v1/audit?cursor=nope', 'base'],
    ['/v1/credits?cursor=12', 'api'],
    ['/v1/credits?limit=0', 'api'],
  ] as const)('refuses a malformed %s with a 400 naming the parameter', async (path, host) => {
    const res = await (host === 'base' ? sb.base : sb.api)('GET', path, { key: KEYS.owner })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: expect.any(String), error: expect.stringMatching(/cursor|limit/) })
  })
})
