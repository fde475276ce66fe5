import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEY_FORMAT, KEYS, startSandbox } from '../../test-support/http.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startSandbox()
})
afterEach(async () => {
  await sb.close()
})

const createKey = (key: string, body: unknown) => sb.base('POST', '/api/v1/keys', { key, body })
const listKeys = (key: string) => sb.base('GET', '/api/v1/keys', { key })

describe('POST /api/v1/keys (KEY-01..06)', () => {
  it('issues a svc_test_ key of 32 characters and shows its value only in the creation response (KEY-01, KEY-02)', async () => {
    const created = await createKey(KEYS.owner, { name: 'ci', scopes: ['reporting:read'] })
    expect(created.status).toBe(201)
    expect(created.body.key).toMatch(KEY_FORMAT)
    expect(created.body).toMatchObject({ name: 'ci', scopes: ['reporting:read'], prefix: created.body.key.slice(0, 12), expires_at: null })
    expect(Object.keys(created.body).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'key', 'last_used_at', 'name', 'prefix', 'scopes', 'user_id', 'workspace_id'])

    const value: string = created.body.key
    const me = await sb.api('GET', '/v1/me', { key: value })
    expect(me.status).toBe(200)
    const later = [me.text, (await listKeys(KEYS.owner)).text, await sb.stateText(), JSON.stringify(await sb.control.journal())]
    for (const text of later) expect(text).not.toContain(value)
    expect(me.body.key).toMatchObject({ id: created.body.id, prefix: value.slice(0, 12) })
  })

  it('needs workspace:write: a key without it gets 403 SCOPE_MISSING naming the scope and nothing is created (KEY-03, AUTH-04)', async () => {
    const before = await sb.stateText()
    const refused = await createKey(KEYS.agent, { name: 'x', scopes: ['tools:read'] })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'SCOPE_MISSING', scope: 'workspace:write' })
    expect(refused.body.error).toContain('workspace:write')
    expect(await sb.stateText()).toBe(before)
  })

  it.each([
    ['0', 0], ['366', 366], ['1.5', 1.5], ['"x"', 'x'], ['-1', -1], ['null', null], ['"30"', '30'], ['true', true],
  ])('refuses expires_in_days %s with 400 naming the field, before anything is created (KEY-04)', async (_label, days) => {
    await sb.control.freezeClock()
    const before = await sb.stateText()
    const refused = await createKey(KEYS.owner, { name: 'x', scopes: ['tools:read'], expires_in_days: days })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', field: 'expires_in_days' })
    expect(refused.body.error).toMatch(/expires_in_days/)
    expect(await sb.stateText()).toBe(before)
  })

  it('answers a bad expires_in_days without a key with 401, with a key with 400 (authenticate first)', async () => {
    const body = { name: 'x', scopes: ['tools:read'], expires_in_days: 366 }
    expect((await sb.base('POST', '/api/v1/keys', { body })).body).toMatchObject({ code: 'AUTHENTICATION_REQUIRED' })
    expect((await createKey(KEYS.owner, body))).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', field: 'expires_in_days' } })
  })

  it.each([1, 365])('accepts expires_in_days %i and sets expires_at that many days after creation (KEY-04)', async (days) => {
    const created = await createKey(KEYS.owner, { name: 'x', scopes: ['tools:read'], expires_in_days: days })
    expect(created.status).toBe(201)
    expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).toBe(days * 86_400_000)
  })

  it('refuses scopes the parent does not hold with 403 SCOPE_MISSING and creates nothing (KEY-05)', async () => {
    await sb.control.freezeClock()
    await listKeys(KEYS.reviewer)
    const before = await sb.stateText()
    const refused = await createKey(KEYS.reviewer, { name: 'more', scopes: ['reporting:read', 'campaigns:write'] })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'SCOPE_MISSING', scope: 'campaigns:write' })
    expect(await sb.stateText()).toBe(before)
  })

  it('binds a child key to the parent key user and workspace, even when the parent is unpinned (KEY-06)', async () => {
    const fromPinned = await createKey(KEYS.reviewer, { name: 'rey-child', scopes: ['reporting:read'] })
    expect(fromPinned.body).toMatchObject({ user_id: 'usr_rey', workspace_id: 'ws_acme' })
    const fromSignup = await createKey(KEYS.signup, { name: 'olivia-child', scopes: ['workspace:read'] })
    expect(fromSignup.body).toMatchObject({ user_id: 'usr_olivia', workspace_id: 'ws_acme' })
  })

  it('ignores workspace or user fields in the body: nothing switches the workspace (KEY-12)', async () => {
    const created = await createKey(KEYS.owner, { name: 'x', scopes: ['tools:read'], workspace_id: 'ws_other', user_id: 'usr_rey' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ user_id: 'usr_olivia', workspace_id: 'ws_acme' })
  })
})

describe('GET /api/v1/keys (KEY-07)', () => {
  it('needs workspace:read', async () => {
    const refused = await listKeys(KEYS.agent)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'SCOPE_MISSING', scope: 'workspace:read' })
  })

  it('lists live keys acting in the caller workspace, newest first, without values or hashes', async () => {
    const created = await createKey(KEYS.owner, { name: 'newest', scopes: ['tools:read'] })
    const listed = await listKeys(KEYS.owner)
    expect(listed.status).toBe(200)
    expect(listed.body.workspace_id).toBe('ws_acme')
    expect(listed.body.keys[0].id).toBe(created.body.id)
    expect(listed.body.keys.map((k: { name: string }) => k.name).sort()).toEqual(['agent', 'newest', 'owner', 'reporting', 'reviewer', 'signup'])
    expect(listed.body.count).toBe(6)
    for (const key of listed.body.keys) {
      expect(key).not.toHaveProperty('key')
      expect(key).not.toHaveProperty('hash')
    }
  })

  it('lists only the caller workspace in a multi-workspace world', async () => {
    await sb.control.reset('multi-workspace')
    const listed = await listKeys(KEYS.alexClientA)
    expect(listed.body.workspace_id).toBe('ws_client_a')
    expect(listed.body.keys.map((k: { name: string }) => k.name).sort()).toEqual(['alex_client_a', 'casey_client_a', 'casey_unpinned'])
  })

  it('leaves out revoked and expired keys', async () => {
    const short = await createKey(KEYS.owner, { name: 'short', scopes: ['tools:read'], expires_in_days: 1 })
    const gone = await createKey(KEYS.owner, { name: 'gone', scopes: ['tools:read'] })
    await sb.base('DELETE', `/api/v1/keys/${gone.body.id}`, { key: KEYS.owner })
    await sb.control.advanceClock('25h')
    const names = (await listKeys(KEYS.owner)).body.keys.map((k: { id: string }) => k.id)
    expect(names).not.toContain(short.body.id)
    expect(names).not.toContain(gone.body.id)
  })
})

describe('DELETE /api/v1/keys/{KEY_ID} (KEY-08, KEY-12)', () => {
  it('revokes a key of the same user and workspace; the revoked key then gets 401', async () => {
    const child = await createKey(KEYS.owner, { name: 'child', scopes: ['reporting:read'] })
    const revoked = await sb.base('DELETE', `/api/v1/keys/${child.body.id}`, { key: KEYS.owner })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toMatchObject({ id: child.body.id, revoked: true })
    expect(revoked.body.revoked_at).toEqual(expect.any(String))
    expect(revoked.text).not.toContain(child.body.key)
    const after = await sb.api('GET', '/v1/me', { key: child.body.key })
    expect(after.status).toBe(401)
    expect(after.body).toMatchObject({ code: 'AUTHENTICATION_REQUIRED' })
    expect(after.body.error).toMatch(/revoked/)
  })

  it('needs workspace:write', async () => {
    const refused = await sb.base('DELETE', '/api/v1/keys/key_whatever', { key: KEYS.reporting })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'SCOPE_MISSING', scope: 'workspace:write' })
  })

  it('refuses to let a key revoke itself with 400 SELF_REVOCATION, and the key keeps working', async () => {
    const me = await sb.api('GET', '/v1/me', { key: KEYS.owner })
    const refused = await sb.base('DELETE', `/api/v1/keys/${me.body.key.id}`, { key: KEYS.owner })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('SELF_REVOCATION')
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
  })

  it("refuses another user's key in the same workspace with 403 KEY_NOT_OWNED", async () => {
    const rey = await sb.api('GET', '/v1/me', { key: KEYS.reviewer })
    const refused = await sb.base('DELETE', `/api/v1/keys/${rey.body.key.id}`, { key: KEYS.owner })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('KEY_NOT_OWNED')
    expect((await sb.api('GET', '/v1/me', { key: KEYS.reviewer })).status).toBe(200)
  })

  it("answers another workspace's key id with a 404 exactly like a missing id (KEY-12)", async () => {
    await sb.control.reset('multi-workspace')
    const other = await sb.api('GET', '/v1/me', { key: KEYS.alexClientB })
    // One client request id for both, so the bodies' `request_id` cannot tell them apart either.
    const named = { key: KEYS.alexClientA, headers: { 'request-id': 'key-12' } }
    const foreign = await sb.base('DELETE', `/api/v1/keys/${other.body.key.id}`, named)
    const missing = await sb.base('DELETE', '/api/v1/keys/key_doesnotexist', named)
    expect(foreign.status).toBe(404)
    expect(missing.status).toBe(404)
    expect(foreign.text.replaceAll(other.body.key.id, 'ID')).toBe(missing.text.replaceAll('key_doesnotexist', 'ID'))
    expect((await sb.api('GET', '/v1/me', { key: KEYS.alexClientB })).status).toBe(200)
  })

  it('answers a second revocation of the same key with 404', async () => {
    const child = await createKey(KEYS.owner, { name: 'child', scopes: ['reporting:read'] })
    await sb.base('DELETE', `/api/v1/keys/${child.body.id}`, { key: KEYS.owner })
    expect((await sb.base('DELETE', `/api/v1/keys/${child.body.id}`, { key: KEYS.owner })).status).toBe(404)
  })
})

describe('key expiry (KEY-09)', () => {
  it('answers 401 once sandbox time passes expires_at, and not a moment before', async () => {
    await sb.control.freezeClock()
    const child = await createKey(KEYS.owner, { name: 'day', scopes: ['reporting:read'], expires_in_days: 1 })
    await sb.control.advanceClock('23h59m')
    expect((await sb.api('GET', '/v1/me', { key: child.body.key })).status).toBe(200)
    await sb.control.advanceClock('1m')
    const expired = await sb.api('GET', '/v1/me', { key: child.body.key })
    expect(expired.status).toBe(401)
    expect(expired.body).toMatchObject({ code: 'AUTHENTICATION_REQUIRED' })
    expect(expired.body.error).toMatch(/expired/)
  })
})
