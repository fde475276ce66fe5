import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../create-sandbox.js'
import { createSandbox } from '../../create-sandbox.js'
import { redeemWindow } from '../connect-page.js'

const T0 = Date.parse('2026-11-23T12:00:00Z')
let sandbox: RunningSandbox

beforeAll(async () => {
  sandbox = await createSandbox({ wall: () => T0 })
})
afterAll(async () => sandbox.close())
beforeEach(async () => {
  await sandbox.control.reset()
})

const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })
const json = { accept: 'application/json', 'content-type': 'application/json' }

async function post(path: string, key: string, body: unknown = { platform: 'google' }) {
  const res = await fetch(`${sandbox.baseUrl}${path}`, { method: 'POST', headers: auth(key), body: JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}

async function startLink(key = sandbox.keys.agent): Promise<{ url: string; expires_at: string; id: string }> {
  const res = await post('/api/v1/connections/start', key)
  expect(res.status).toBe(201)
  return res.body
}

async function connections(key = sandbox.keys.owner): Promise<Array<{ id: string; workspace_id: string; source: string; account_id: string }>> {
  const res = await fetch(`${sandbox.apiUrl}/v1/connections`, { headers: auth(key) })
  return (await res.json()).connections
}

const useLink = (url: string, body: unknown = {}) => fetch(url, { method: 'POST', headers: json, body: JSON.stringify(body) })

describe('POST /api/v1/connections/start (CONN-01)', () => {
  it('returns a single-use {base_url}/connect/{token} link valid 30 minutes', async () => {
    const link = await startLink()
    expect(link).toMatchObject({ platform: 'google', workspace_id: 'ws_acme', single_use: true, expires_in_seconds: 1800, expires_at: '2026-11-23T12:30:00.000Z' })
    expect(link.url).toMatch(new RegExp(`^${sandbox.baseUrl}/connect/[A-Za-z0-9]{32}$`))
  })

  it.each([
    ['a key without connections:write', () => sandbox.keys.reviewer, { platform: 'google' }, 403, 'SCOPE_MISSING'],
    ['no key', () => '', { platform: 'google' }, 401, 'AUTHENTICATION_REQUIRED'],
    ['a missing platform', () => sandbox.keys.agent, {}, 400, 'INVALID_REQUEST'],
    ['an unsupported platform', () => sandbox.keys.agent, { platform: 'meta' }, 400, 'UNSUPPORTED_PLATFORM'],
  ])('refuses %s and creates nothing', async (_label, key, body, status, code) => {
    const res = await post('/api/v1/connections/start', key(), body)
    expect(res).toMatchObject({ status, body: { code } })
    const state = await sandbox.control.request<{ connectLinks: unknown[] }>('GET', '/state')
    expect(state.connectLinks).toHaveLength(0)
  })

  it('accepts the platform case-insensitively and stores only the token hash', async () => {
    const res = await post('/api/v1/connections/start', sandbox.keys.agent, { platform: 'Google' })
    expect(res.status).toBe(201)
    const token = res.body.url.split('/').pop()
    const state = JSON.stringify(await sandbox.control.request('GET', '/state'))
    expect(state).not.toContain(token)
  })
})

describe('using a connect link (CONN-02, CONN-03)', () => {
  it('connects an account into the workspace of the key that created the link', async () => {
    const multi = await sandbox.control.reset('multi-workspace')
    const clientKey = multi.keys.find((k) => k.name === 'alex_client_b')!.value
    const link = await startLink(clientKey)
    const res = await useLink(link.url)
    expect(res.status).toBe(201)
    const { connection } = await res.json()
    expect(connection).toMatchObject({ workspace_id: 'ws_client_b', platform: 'google', source: 'connect_link', status: 'active' })
    expect((await connections(clientKey)).map((c) => c.id)).toContain(connection.id)
    const agencyKey = multi.keys.find((k) => k.name === 'alex_agency')!.value
    expect((await connections(agencyKey)).map((c) => c.id)).not.toContain(connection.id)
  })

  it('generates campaigns for the newly connected account', async () => {
    const count = async () => (await (await fetch(`${sandbox.apiUrl}/v1/campaigns?limit=100`, { headers: auth(sandbox.keys.owner) })).json()).campaigns.length
    const before = await count()
    expect((await useLink((await startLink()).url)).status).toBe(201)
    expect(await count()).toBe(before + 5)
  })

  it('connects the chosen account from the offered list', async () => {
    const link = await startLink()
    const offered = await (await fetch(link.url, { headers: { accept: 'application/json' } })).json()
    expect(offered.accounts).toHaveLength(3)
    const chosen = offered.accounts[2]
    const res = await useLink(link.url, { account_id: chosen.account_id })
    expect((await res.json()).connection).toMatchObject(chosen)
    const bad = await useLink((await startLink()).url, { account_id: 'nope' })
    expect(bad.status).toBe(400)
  })

  it('works once: a second use gets 410 LINK_GONE and connects nothing', async () => {
    const link = await startLink()
    expect((await useLink(link.url)).status).toBe(201)
    const again = await useLink(link.url)
    expect(again.status).toBe(410)
    expect(await again.json()).toMatchObject({ code: 'LINK_GONE', link_status: 'used' })
    expect((await connections()).filter((c) => c.source === 'connect_link')).toHaveLength(1)
  })

  it.each([
    ['29m59s', 201, null],
    ['30m', 410, 'expired'],
    ['30m1s', 410, 'expired'],
  ])('after %s of sandbox time the link answers %i', async (advance, status, linkStatus) => {
    const link = await startLink()
    await sandbox.control.advanceClock(advance)
    const res = await useLink(link.url)
    expect(res.status).toBe(status)
    if (linkStatus) expect(await res.json()).toMatchObject({ code: 'LINK_GONE', link_status: linkStatus })
    expect((await connections()).filter((c) => c.source === 'connect_link')).toHaveLength(status === 201 ? 1 : 0)
  })

  it('100 concurrent uses of one link create exactly one connection, all held between the check and the redemption', async () => {
    const link = await startLink()
    // Every request passes the route's "still pending?" check, then waits until all 100 have, so
    // they redeem together: a check-then-act race (no re-check in the redemption) would connect 100.
    let arrived = 0
    let release = () => {}
    const together = new Promise<void>((resolve) => (release = resolve))
    redeemWindow.hold = () => {
      if (++arrived === 100) release()
      return together
    }
    const results = await Promise.all(Array.from({ length: 100 }, () => useLink(link.url))).finally(() => (redeemWindow.hold = null))
    expect(arrived).toBe(100)
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 410)).toHaveLength(99)
    expect((await connections()).filter((c) => c.source === 'connect_link')).toHaveLength(1)
  })

  it('an unknown token is 404 for API clients', async () => {
    const res = await fetch(`${sandbox.baseUrl}/connect/doesnotexist`, { headers: { accept: 'application/json' } })
    expect(res.status).toBe(404)
  })
})

describe('the consent page (HTML)', () => {
  const html = { accept: 'text/html,application/xhtml+xml' }

  it('GET shows a fake Google sign-in listing the accounts; the form POST connects', async () => {
    const link = await startLink()
    const page = await fetch(link.url, { headers: html })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const text = await page.text()
    expect(text).toContain('Sign in with Google')
    expect(text).toContain('olivia@acme.test')
    expect(text.match(/name="account_id"/g)).toHaveLength(3)
    const accountId = /value="(\d{3}-\d{3}-\d{4})"/.exec(text)![1]
    const done = await fetch(link.url, { method: 'POST', headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' }, body: `account_id=${accountId}` })
    expect(done.status).toBe(201)
    expect(await done.text()).toContain('Account connected')
    expect((await connections()).map((c) => c.account_id)).toContain(accountId)
  })

  it.each([
    ['used', async (url: string) => { await useLink(url) }, 'already been used'],
    ['expired', async () => { await sandbox.control.advanceClock('31m') }, 'expired'],
  ])('a %s link shows a clear 410 page', async (_label, spoil, words) => {
    const link = await startLink()
    await spoil(link.url)
    for (const method of ['GET', 'POST']) {
      const res = await fetch(link.url, { method, headers: html })
      expect(res.status).toBe(410)
      expect(await res.text()).toContain(words)
    }
  })
})

describe('connection requests (CONN-04)', () => {
  it('e-mails a fresh link to the workspace owner and reports pending → completed', async () => {
    const res = await post('/api/v1/connections/request', sandbox.keys.agent)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'pending', sent_to: 'olivia@acme.test', platform: 'google' })
    const { mails } = await sandbox.control.request<{ mails: Array<{ to: string; link: string; request_id: string; body: string }> }>('GET', '/outbox')
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ to: 'olivia@acme.test', request_id: res.body.request_id })
    expect(mails[0].body).toContain(mails[0].link)
    const status = () => fetch(`${sandbox.baseUrl}/api/v1/connections/requests/${res.body.id}`, { headers: auth(sandbox.keys.agent) }).then((r) => r.json())
    expect(await status()).toMatchObject({ status: 'pending', connection_id: null })
    expect((await useLink(mails[0].link)).status).toBe(201)
    expect(await status()).toMatchObject({ status: 'completed', connection_id: expect.stringMatching(/^conn_/) })
  })

  it('reports expired once the link has run out unused', async () => {
    const res = await post('/api/v1/connections/request', sandbox.keys.agent)
    await sandbox.control.advanceClock('30m1s')
    const status = await fetch(`${sandbox.baseUrl}/api/v1/connections/requests/${res.body.id}`, { headers: auth(sandbox.keys.agent) })
    expect(await status.json()).toMatchObject({ status: 'expired' })
  })

  it('status needs connections:read; another workspace sees 404 (KEY-12)', async () => {
    const res = await post('/api/v1/connections/request', sandbox.keys.agent)
    const path = `${sandbox.baseUrl}/api/v1/connections/requests/${res.body.id}`
    expect((await fetch(path, { headers: auth(sandbox.keys.reporting) })).status).toBe(403)
    const { user } = await sandbox.control.request<{ user: { id: string } }>('POST', '/users', { email: 'zed@else.test', name: 'Zed' })
    await sandbox.control.request('POST', '/workspaces', { id: 'ws_else', name: 'Else', owner_user_id: user.id })
    const other = await sandbox.control.mintKey({ user_id: user.id, workspace_id: 'ws_else', scopes: ['connections:read'] })
    const foreign = await fetch(path, { headers: auth(other.key) })
    expect(foreign.status).toBe(404)
    expect((await fetch(`${sandbox.baseUrl}/api/v1/connections/requests/creq_nope`, { headers: auth(sandbox.keys.agent) })).status).toBe(404)
  })
})
