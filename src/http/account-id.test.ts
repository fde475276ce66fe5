import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

// `--account-id` names an account like any id: one that is not connected to the caller's workspace
// (made up, or another workspace's) is 404 NOT_FOUND, and the refused call changes and charges nothing.

const HASHES = ['a'.repeat(64), 'b'.repeat(64)].join(',')
let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())
beforeEach(async () => {
  await sb.control.reset('multi-workspace')
})

const audience = (accountId: string) => sb.base('POST', '/api/v1/tools/run', {
  key: KEYS.alexClientA, body: { script_name: 'google_ads_create_customer_match', args: ['--name', 'Buyers', '--account-id', accountId, '--hashed-emails', HASHES] },
})
const balance = async () => (await sb.api('GET', '/v1/credits', { key: KEYS.alexClientA })).body.balance as number

describe('--account-id on account-scoped scripts', () => {
  it.each([
    ['another workspace\'s account', '444-555-6666'],
    ['a made-up account', '999-999-9999'],
  ])('refuses %s with 404 NOT_FOUND, charging and auditing nothing', async (_label, accountId) => {
    const credits = await balance()
    const state = await sb.stateText()
    const refused = await audience(accountId)
    expect(refused).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', error: expect.stringContaining(accountId) } })
    expect(refused.text).not.toContain('Client B')
    expect(await sb.stateText()).toBe(state)
    expect(await balance()).toBe(credits)
    expect((await sb.base('GET', '/api/v1/audit', { key: KEYS.alexClientA })).body.total).toBe(0)
  })

  it('runs against the workspace\'s own connected account and names it', async () => {
    const created = await audience('111-222-3333')
    expect(created).toMatchObject({ status: 200, body: { status: 'SYNCED', account_id: '111-222-3333', record_count: 2 } })
  })

  it('refuses a foreign account on the daily spend read too', async () => {
    const read = await sb.base('POST', '/api/v1/tools/run', {
      key: KEYS.alexClientA, body: { script_name: 'get_account_daily_spend', platform: 'google', args: ['--account-id', '444-555-6666'] },
    })
    expect(read).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
  })
})
