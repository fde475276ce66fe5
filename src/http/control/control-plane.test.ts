import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEY_FORMAT, KEYS, startSandbox } from '../../test-support/http.js'

let sb: TestSandbox
afterEach(async () => {
  await sb.close()
})

describe('control plane', () => {
  beforeEach(async () => {
    sb = await startSandbox()
  })

  it('lists every route at GET /_sandbox/', async () => {
    const index = await sb.base('GET', '/_sandbox/')
    expect(index.body.routes).toEqual(expect.arrayContaining(['POST /_sandbox/reset', 'GET /_sandbox/state', 'POST /_sandbox/clock', 'DELETE /_sandbox/memberships/:id']))
  })

  it('reset empties the request journal: no exchange of the dropped world is left to link to its audit (issue 37)', async () => {
    await sb.api('GET', '/v1/credits', { key: KEYS.owner })
    const journal = async () => (await sb.base('GET', '/_sandbox/journal?limit=1000')).body as { entries: Array<{ seq: number; method: string; path: string }>; last_seq: number }
    const before = await journal()
    expect(before.entries.some((e) => e.path === '/v1/credits')).toBe(true)
    expect((await sb.base('POST', '/_sandbox/reset', { body: {} })).status).toBe(200)
    expect((await journal()).entries.filter((e) => !e.path.startsWith('/_sandbox'))).toEqual([])
    // Sequence numbers keep counting, so a poll's `since` cursor still reads only new exchanges.
    await sb.api('GET', '/v1/credits', { key: KEYS.owner })
    const after = (await journal()).entries.filter((e) => e.path === '/v1/credits')
    expect(after).toHaveLength(1)
    expect(after[0].seq).toBeGreaterThan(before.last_seq)
  })

  it('creates a user with a signup key returned once: unpinned, every scope, working at once', async () => {
    const created = await sb.base('POST', '/_sandbox/users', { body: { email: 'sam@acme.test', name: 'Sam', id: 'usr_sam' } })
    expect(created.status).toBe(201)
    expect(created.body.user).toMatchObject({ id: 'usr_sam', email: 'sam@acme.test' })
    expect(created.body.signup_key).toMatchObject({ workspace_id: null, user_id: 'usr_sam' })
    expect(created.body.signup_key.key).toMatch(KEY_FORMAT)
    // No workspace yet: the key authenticates but cannot act anywhere.
    const refused = await sb.api('GET', '/v1/credits', { key: created.body.signup_key.key })
    expect(refused.body.code).toBe('WORKSPACE_SCOPE_REQUIRED')
    await sb.base('POST', '/_sandbox/workspaces', { body: { name: 'Sam Co', owner_user_id: 'usr_sam', id: 'ws_sam', credits: { balance: 5 } } })
    expect((await sb.api('GET', '/v1/credits', { key: created.body.signup_key.key })).body).toMatchObject({ workspace_id: 'ws_sam', balance: 5 })
    const users = await sb.base('GET', '/_sandbox/users')
    expect(users.text).not.toContain(created.body.signup_key.key)
  })

  it('creates client workspaces under a parent and lists each parent with its children', async () => {
    const child = await sb.base('POST', '/_sandbox/workspaces', { body: { name: 'Client', owner_user_id: 'usr_olivia', parent_id: 'ws_acme', policy: { hold: [] } } })
    expect(child.status).toBe(201)
    expect(child.body).toMatchObject({ parent_id: 'ws_acme', credits: { balance: 1000, payment_method: true } })
    expect(child.body.policy.hold).toEqual([])
    const list = await sb.base('GET', '/_sandbox/workspaces')
    const parent = list.body.workspaces.find((w: { id: string }) => w.id === 'ws_acme')
    expect(parent.children).toEqual([child.body.id])
    expect(list.body.workspaces.find((w: { id: string }) => w.id === child.body.id)).toMatchObject({ children: [], members: 1 })
  })

  it('adds, ends and re-activates memberships', async () => {
    const sam = await sb.base('POST', '/_sandbox/users', { body: { email: 'sam@acme.test', name: 'Sam' } })
    const added = await sb.base('POST', '/_sandbox/memberships', { body: { user_id: sam.body.user.id, workspace_id: 'ws_acme', role: 'admin' } })
    expect(added.body).toMatchObject({ status: 'active', role: 'admin' })
    const ended = await sb.base('DELETE', `/_sandbox/memberships/${added.body.id}`)
    expect(ended.body).toMatchObject({ status: 'removed', removed_at: expect.any(String) })
    expect((await sb.base('DELETE', `/_sandbox/memberships/${added.body.id}`)).status).toBe(404)
    const again = await sb.base('POST', '/_sandbox/memberships', { body: { user_id: sam.body.user.id, workspace_id: 'ws_acme' } })
    expect(again.body).toMatchObject({ id: added.body.id, status: 'active' })
  })

  it.each([
    ['pinned', { user_id: 'usr_rey', workspace_id: 'ws_acme', scopes: ['workspace:read'] }, 'ws_acme'],
    ['unpinned', { user_id: 'usr_rey', scopes: ['workspace:read'], name: 'portal', expires_in_days: 30 }, null],
  ])('mints a %s key for any user, returning its value once', async (_label, body, pin) => {
    const minted = await sb.base('POST', '/_sandbox/keys', { body })
    expect(minted.status).toBe(201)
    expect(minted.body.key).toMatch(KEY_FORMAT)
    expect(minted.body.workspace_id).toBe(pin)
    expect((await sb.base('GET', '/api/v1/keys', { key: minted.body.key })).body.workspace_id).toBe('ws_acme')
    const listed = await sb.base('GET', '/_sandbox/keys')
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toContain(minted.body.id)
    expect(listed.text).not.toContain(minted.body.key)
  })

  it('resets to a world, dropping everything created since', async () => {
    await sb.base('POST', '/_sandbox/users', { body: { email: 'sam@acme.test', name: 'Sam' } })
    await sb.control.advanceClock('5d')
    const reset = await sb.base('POST', '/_sandbox/reset', { body: { world: 'multi-workspace', seed: 3 } })
    expect(reset.body).toMatchObject({ world: 'multi-workspace', seed: 3 })
    expect(reset.body.keys.map((k: { name: string }) => k.name)).toContain('alex_unpinned')
    expect((await sb.base('GET', '/_sandbox/users')).body.users.map((u: { id: string }) => u.id)).toEqual(['usr_alex', 'usr_casey'])
    expect((await sb.control.clock()).offset_ms).toBe(0)
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(401)
    expect((await sb.base('GET', '/_sandbox/worlds')).body.worlds).toEqual(expect.arrayContaining(['default', 'multi-workspace']))
  })

  it('round-trips the state: export, change, import restores exactly the export', async () => {
    await sb.control.freezeClock()
    const exported = await sb.stateText()
    const child = await sb.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'later', scopes: ['tools:read'] } })
    await sb.control.advanceClock('1h')
    const imported = await sb.base('PUT', '/_sandbox/state', { body: exported })
    expect(imported.body).toMatchObject({ imported: true, counts: { users: 2, keys: 5 } })
    expect(await sb.stateText()).toBe(exported)
    expect((await sb.api('GET', '/v1/me', { key: child.body.key })).status).toBe(401)
  })
})

describe('sandbox clock', () => {
  beforeEach(async () => {
    sb = await startSandbox()
  })

  it('advances, sets and freezes sandbox time', async () => {
    const frozen = await sb.control.freezeClock()
    expect(frozen.frozen).toBe(true)
    const advanced = await sb.control.advanceClock('1h30m')
    expect(Date.parse(advanced.now) - Date.parse(frozen.now)).toBe(90 * 60_000)
    await sb.control.setClock('2031-05-01T12:00:00.000Z')
    expect((await sb.control.clock()).now).toBe('2031-05-01T12:00:00.000Z')
    const both = await sb.base('POST', '/_sandbox/clock', { body: { set: '2031-05-01T12:00:00Z', advance: '2d' } })
    expect(both.body.now).toBe('2031-05-03T12:00:00.000Z')
    const thawed = await sb.control.freezeClock(false)
    expect(thawed.frozen).toBe(false)
    expect(Math.abs(Date.parse((await sb.control.clock()).now) - Date.parse('2031-05-03T12:00:00.000Z'))).toBeLessThan(5_000)
  })

  it.each([{ advance: '-1h' }, { advance: '1y' }, { set: 'tomorrow' }, { advance: '10000000d' }, { freeze: 1 }])(
    'refuses %j with 400 and leaves the clock as it was', async (body) => {
      await sb.control.freezeClock()
      const before = await sb.control.clock()
      const refused = await sb.base('POST', '/_sandbox/clock', { body })
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('INVALID_REQUEST')
      expect(await sb.control.clock()).toEqual(before)
    })
})

describe('admin token', () => {
  beforeEach(async () => {
    sb = await startSandbox({ adminToken: 's3cret' })
  })

  it.each([
    ['no header', {}],
    ['a wrong token', { 'x-sandbox-admin': 'nope' }],
    ['a longer token', { 'x-sandbox-admin': 's3cret-and-more' }],
    // Six characters like the token, seven bytes in UTF-8: compared as digests, never a 500.
    ['a non-ASCII token of the same length in characters', { 'x-sandbox-admin': 's3cr\u00e9t' }],
    ['a non-ASCII token of the same length in bytes', { 'x-sandbox-admin': 's3cr\u00e9' }],
  ])('refuses the control plane with %s: 401 ADMIN_TOKEN_REQUIRED', async (_label, headers) => {
    for (const [method, path] of [['GET', '/_sandbox/state'], ['POST', '/_sandbox/reset'], ['GET', '/_sandbox/'], ['GET', '/_sandbox/nope']]) {
      const refused = await sb.base(method, path, { headers: { ...headers, 'x-sandbox-admin': (headers as Record<string, string>)['x-sandbox-admin'] ?? '' } })
      expect(refused.status).toBe(401)
      expect(refused.body).toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED', error: expect.any(String) })
    }
  })

  it('accepts the right token, and the public API needs none', async () => {
    expect((await sb.base('GET', '/_sandbox/state')).status).toBe(200)
    expect((await sb.control.clock()).now).toEqual(expect.any(String))
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
  })
})
