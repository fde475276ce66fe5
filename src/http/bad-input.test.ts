import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Answer, TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

/**
 * Every endpoint of the sandbox core against bad input. A refusal is always JSON `{error, code}`
 * with a 4xx status, never a 5xx, and leaves the state snapshot byte-identical.
 */
let sb: TestSandbox
let exported: Record<string, any>
beforeAll(async () => {
  sb = await startSandbox()
  exported = JSON.parse(await sb.stateText())
})
afterAll(async () => {
  await sb.close()
})

type Host = 'base' | 'api'
const BODIED: Array<[Host, string, string]> = [
  ['base', 'POST', '/api/v1/keys'],
  ['base', 'POST', '/_sandbox/users'],
  ['base', 'POST', '/_sandbox/workspaces'],
  ['base', 'POST', '/_sandbox/memberships'],
  ['base', 'POST', '/_sandbox/keys'],
  ['base', 'POST', '/_sandbox/clock'],
  ['base', 'PUT', '/_sandbox/state'],
  ['base', 'POST', '/_sandbox/reset'],
]

async function expectRefused(send: () => Promise<Answer>, status?: number): Promise<Answer> {
  const before = await sb.stateText()
  const answer = await send()
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(400)
  expect(answer.status, answer.text).toBeLessThan(500)
  if (status !== undefined) expect(answer.status, answer.text).toBe(status)
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
  expect(answer.body).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) })
  expect(changeIn(before, await sb.stateText()), 'the state changed').toBe('')
  return answer
}

/** '' when equal, else a short excerpt around the first difference (full snapshots are unreadable). */
function changeIn(before: string, after: string): string {
  if (before === after) return ''
  let i = 0
  while (before[i] === after[i]) i++
  return `at ${i}: ${before.slice(Math.max(0, i - 120), i + 60)} → ${after.slice(Math.max(0, i - 120), i + 60)}`
}

const ONE_MB_PLUS = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), scopes: ['tools:read'] })

describe.each(BODIED)('%s %s %s refuses malformed bodies', (host, method, path) => {
  const bodies: Array<[string, string, number]> = [
    ['malformed JSON', '{"name": ', 400],
    ['a JSON string', '"hello"', 400],
    ['a number', '42', 400],
    ['null', 'null', 400],
    ['true', 'true', 400],
    ['an array', '[]', 400],
    ['an array of objects', '[{"name":"x"}]', 400],
    ['a trailing comma', '{"name":"x",}', 400],
    ['a lone surrogate escape in a broken document', '{"name":"\\ud800', 400],
  ]
  it.each(bodies)('%s', async (_label, body, status) => {
    await expectRefused(() => sb[host](method, path, { key: KEYS.owner, body }), status)
  })

  // A state import may be large (64 MB) and a reset may have no body: those cases do not apply there.
  if (!(method === 'PUT' && path === '/_sandbox/state')) {
    it('a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
      const answer = await expectRefused(() => sb[host](method, path, { key: KEYS.owner, body: ONE_MB_PLUS }), 413)
      expect(answer.body.code).toBe('PAYLOAD_TOO_LARGE')
    })
  }

  if (path !== '/_sandbox/reset') {
    it('an empty body, and JSON sent as text/plain, with 400', async () => {
      await expectRefused(() => sb[host](method, path, { key: KEYS.owner, body: '' }), 400)
      await expectRefused(() => sb[host](method, path, { key: KEYS.owner, body: '{"a":1}', headers: { 'content-type': 'text/plain' } }), 400)
    })
  }
})

const big = 'x'.repeat(600_000)
const FIELD_CASES: Array<[string, string, unknown, string | undefined]> = [
  ['POST', '/api/v1/keys', { scopes: ['tools:read'] }, 'name'],
  ['POST', '/api/v1/keys', { name: 5, scopes: ['tools:read'] }, 'name'],
  ['POST', '/api/v1/keys', { name: { a: 1 }, scopes: ['tools:read'] }, 'name'],
  ['POST', '/api/v1/keys', { name: '   ', scopes: ['tools:read'] }, 'name'],
  ['POST', '/api/v1/keys', { name: big, scopes: ['tools:read'] }, 'name'],
  ['POST', '/api/v1/keys', { name: 'x' }, 'scopes'],
  ['POST', '/api/v1/keys', { name: 'x', scopes: 'tools:read' }, 'scopes'],
  ['POST', '/api/v1/keys', { name: 'x', scopes: [] }, 'scopes'],
  ['POST', '/api/v1/keys', { name: 'x', scopes: [5] }, 'scopes.0'],
  ['POST', '/api/v1/keys', { name: 'x', scopes: ['tools:read', 'ключи:читать'] }, 'scopes.1'],
  ['POST', '/api/v1/keys', { name: 'x', scopes: { 0: 'tools:read' } }, 'scopes'],
  ['POST', '/api/v1/keys', { name: 'x', scopes: ['tools:read'], expires_in_days: '30' }, 'expires_in_days'],
  ['POST', '/_sandbox/users', { email: 'nope', name: 'N' }, 'email'],
  ['POST', '/_sandbox/users', { email: ['a@b.test'], name: 'N' }, 'email'],
  ['POST', '/_sandbox/users', { email: 'a@b.test' }, 'name'],
  ['POST', '/_sandbox/users', { email: 'a@b.test', name: big }, 'name'],
  ['POST', '/_sandbox/users', { email: 'a@b.test', name: 'N', id: 'bad id!' }, 'id'],
  ['POST', '/_sandbox/users', { email: 'a@b.test', name: 'N', id: 'пользователь' }, 'id'],
  ['POST', '/_sandbox/users', { email: 'a@b.test', name: 'N', nmae: 'typo' }, 'nmae'],
  ['POST', '/_sandbox/workspaces', { name: 'W' }, 'owner_user_id'],
  ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', parent_id: 5 }, 'parent_id'],
  ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', credits: { balance: -1 } }, 'credits.balance'],
  ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', credits: { balanse: 3 } }, 'credits.balanse'],
  ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', policy: [] }, 'policy'],
  ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', policy: { hold: ['explode'] } }, 'policy.hold.0'],
  ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', rate_limits: { per_key: { capacity: 0, refill_per_second: 1 } } }, 'rate_limits.per_key.capacity'],
  ['POST', '/_sandbox/memberships', { user_id: 'usr_rey' }, 'workspace_id'],
  ['POST', '/_sandbox/memberships', { user_id: 'usr_rey', workspace_id: 'ws_acme', role: 'king' }, 'role'],
  ['POST', '/_sandbox/keys', { user_id: 'usr_olivia', scopes: [] }, 'scopes'],
  ['POST', '/_sandbox/keys', { user_id: 'usr_olivia', scopes: ['everything'] }, 'scopes.0'],
  ['POST', '/_sandbox/keys', { user_id: 'usr_olivia', scopes: ['tools:read'], expires_in_days: 0 }, 'expires_in_days'],
  ['POST', '/_sandbox/keys', { user_id: 'usr_olivia', scopes: ['tools:read'], expires_in_days: 400 }, 'expires_in_days'],
  ['POST', '/_sandbox/keys', { user_id: 'usr_olivia', scopes: ['tools:read'], workspace_id: 7 }, 'workspace_id'],
  ['POST', '/_sandbox/keys', { user_id: 'usr_olivia', scopes: ['tools:read'], name: '' }, 'name'],
  ['POST', '/_sandbox/clock', {}, undefined],
  ['POST', '/_sandbox/clock', { advance: '-5m' }, 'advance'],
  ['POST', '/_sandbox/clock', { advance: 'soon' }, 'advance'],
  ['POST', '/_sandbox/clock', { advance: '5м' }, 'advance'],
  ['POST', '/_sandbox/clock', { advance: '' }, 'advance'],
  ['POST', '/_sandbox/clock', { advance: -1 }, 'advance'],
  ['POST', '/_sandbox/clock', { advance: true }, 'advance'],
  ['POST', '/_sandbox/clock', { advance: '99999999d' }, 'advance'],
  ['POST', '/_sandbox/clock', { advance: 1e300 }, 'advance'],
  ['POST', '/_sandbox/clock', { set: 'yesterday' }, 'set'],
  ['POST', '/_sandbox/clock', { set: '2026-13-01T00:00:00Z' }, 'set'],
  ['POST', '/_sandbox/clock', { freeze: 'yes' }, 'freeze'],
  ['POST', '/_sandbox/clock', { advance: '1h', tick: 1 }, 'tick'],
  ['POST', '/_sandbox/reset', { world: 'no-such-world' }, 'world'],
  ['POST', '/_sandbox/reset', { world: '../../../../etc/hostname' }, 'world'],
  ['POST', '/_sandbox/reset', { world: 5 }, 'world'],
  ['POST', '/_sandbox/reset', { world: '' }, 'world'],
  ['POST', '/_sandbox/reset', { seed: 1.5 }, 'seed'],
  ['POST', '/_sandbox/reset', { wrold: 'default' }, 'wrold'],
  ['PUT', '/_sandbox/state', {}, 'version'],
  ['PUT', '/_sandbox/state', { version: 1 }, 'meta'],
]

describe('wrong field types and values answer 400 naming the field', () => {
  it.each(FIELD_CASES)('%s %s %j', async (method, path, body, field) => {
    const answer = await expectRefused(() => sb.base(method, path, { key: KEYS.owner, body }), 400)
    if (field) expect(answer.body.field).toBe(field)
    if (field) expect(answer.body.error).toContain(field.split('.')[0])
  })

  it.each([
    ['a version 2 snapshot', (s: any) => ({ ...s, version: 2 }), 'version'],
    ['a key row without a proper hash', (s: any) => ({ ...s, keys: [{ ...s.keys[0], hash: 'x' }] }), 'keys.0.hash'],
    ['users that are not an array', (s: any) => ({ ...s, users: 'everyone' }), 'users'],
    ['a membership with an unknown status', (s: any) => ({ ...s, memberships: [{ ...s.memberships[0], status: 'maybe' }] }), 'memberships.0.status'],
    ['a policy with a mistyped field', (s: any) => ({ ...s, workspaces: [{ ...s.workspaces[0], policy: { hold: 5 } }] }), 'workspaces.0.policy.hold'],
    ['an unknown top-level table', (s: any) => ({ ...s, widgets: [] }), 'widgets'],
    ['a clock beyond year 9999', (s: any) => ({ ...s, meta: { ...s.meta, clock: { offset_ms: 1e300, frozen_at: null } } }), 'meta.clock.offset_ms'],
  ])('PUT /_sandbox/state with %s', async (_label, change, field) => {
    const answer = await expectRefused(() => sb.base('PUT', '/_sandbox/state', { body: change(exported) }), 400)
    expect(answer.body.field).toBe(field)
  })
})

describe('references to things that do not exist', () => {
  it.each([
    ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_nobody' }, 404],
    ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', parent_id: 'ws_nowhere' }, 404],
    ['POST', '/_sandbox/workspaces', { name: 'W', owner_user_id: 'usr_olivia', id: 'ws_acme' }, 409],
    ['POST', '/_sandbox/users', { email: 'olivia@acme.test', name: 'Dup' }, 409],
    ['POST', '/_sandbox/users', { email: 'new@acme.test', name: 'Dup', id: 'usr_rey' }, 409],
    ['POST', '/_sandbox/memberships', { user_id: 'usr_rey', workspace_id: 'ws_acme' }, 409],
    ['POST', '/_sandbox/memberships', { user_id: 'usr_nobody', workspace_id: 'ws_acme' }, 404],
    ['POST', '/_sandbox/keys', { user_id: 'usr_nobody', scopes: ['tools:read'] }, 404],
    ['POST', '/_sandbox/keys', { user_id: 'usr_olivia', workspace_id: 'ws_nowhere', scopes: ['tools:read'] }, 404],
    ['DELETE', '/_sandbox/memberships/mem_nothing', undefined, 404],
    ['DELETE', '/_sandbox/memberships/%E0%A4%A', undefined, 400],
    ['DELETE', '/api/v1/keys/%E0%A4%A', undefined, 400],
    ['DELETE', '/api/v1/keys/🔑', undefined, 404],
    ['DELETE', `/api/v1/keys/${KEYS.agent}`, undefined, 404],
  ])('%s %s %j answers %i', async (method, path, body, status) => {
    await expectRefused(() => sb.base(method, path, { key: KEYS.owner, body }), status)
  })
})

describe('query parameters', () => {
  it.each([
    '?limit=1&limit=2', '?since=-1', '?since=abc', '?status=abc', '?host=mars', '?limit=0', '?limit=10001', '?path=a&path=b', '?unknown=1',
  ])('GET /_sandbox/journal%s answers 400', async (query) => {
    const answer = await expectRefused(() => sb.base('GET', `/_sandbox/journal${query}`), 400)
    expect(answer.body.code).toBe('INVALID_REQUEST')
  })

  it('ignores repeated or unknown query parameters on the public API', async () => {
    const answer = await sb.base('GET', '/api/v1/keys?a=1&a=2&workspace_id=x&workspace_id=y', { key: KEYS.owner })
    expect(answer.status).toBe(200)
  })
})

describe('routes and methods', () => {
  it.each([
    ['base', 'GET', '/nope'], ['base', 'GET', '/api/v1/nope'], ['base', 'POST', '/api/v1/keys/a/b'], ['base', 'GET', '/v1/me'],
    ['base', 'GET', '/_sandbox/nope'], ['api', 'GET', '/v1/nope'], ['api', 'GET', '/v1/me/extra'], ['api', 'GET', '/_sandbox/state'],
    ['api', 'POST', '/api/v1/keys'],
  ] as const)('%s %s %s answers 404 ROUTE_NOT_FOUND', async (host, method, path) => {
    const answer = await expectRefused(() => sb[host](method, path, { key: KEYS.owner }), 404)
    expect(answer.body.code).toBe('ROUTE_NOT_FOUND')
  })

  it.each([
    ['base', 'PUT', '/api/v1/keys', 'POST, GET, HEAD'],
    ['base', 'GET', '/api/v1/keys/key_1', 'DELETE'],
    ['api', 'POST', '/v1/me', 'GET, HEAD'],
    ['api', 'DELETE', '/v1/credits', 'GET, HEAD'],
    ['api', 'PUT', '/v1/connections', 'GET, HEAD'],
    ['base', 'GET', '/_sandbox/reset', 'POST'],
    ['base', 'POST', '/_sandbox/state', 'GET, PUT, HEAD'],
    ['base', 'PATCH', '/_sandbox/users', 'GET, POST, HEAD'],
    ['base', 'DELETE', '/_sandbox/workspaces', 'GET, POST, HEAD'],
    ['base', 'GET', '/_sandbox/memberships/mem_1', 'DELETE'],
    ['base', 'PUT', '/_sandbox/keys', 'GET, POST, HEAD'],
    ['base', 'DELETE', '/_sandbox/clock', 'GET, POST, HEAD'],
    ['base', 'POST', '/_sandbox/journal', 'GET, DELETE, HEAD'],
    ['base', 'POST', '/_sandbox/worlds', 'GET, HEAD'],
  ] as const)('%s %s %s answers 405 with Allow: %s', async (host, method, path, allow) => {
    const answer = await expectRefused(() => sb[host](method, path, { key: KEYS.owner }), 405)
    expect(answer.body.code).toBe('METHOD_NOT_ALLOWED')
    expect(answer.headers.get('allow')).toBe(allow)
  })

  it('answers oversized request headers with a JSON 431', async () => {
    const answer = await expectRefused(() => sb.api('GET', '/v1/me', { headers: { 'x-padding': 'p'.repeat(20_000) } }), 431)
    expect(answer.body.code).toBe('HEADERS_TOO_LARGE')
  })

  it('answers a huge credential header value with 401, not a crash', async () => {
    await expectRefused(() => sb.api('GET', '/v1/me', { headers: { 'x-service-key': 'svc_test_'.padEnd(8000, 'z') } }), 401)
  })
})
