import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

/**
 * Authorize before validate (RULES.md Authentication; docs/security.md "Authentication order"): a
 * key without the route's scope gets 403 SCOPE_MISSING whatever its body, malformed JSON included
 * (issue 36: moving the scope check after the body parse answered 400 and survived the suite).
 * The reporting key holds reporting:read, campaigns:read and tools:read only.
 */
const MALFORMED = '{"name": "x",'
const ROUTES = [
  ['base', 'POST', '/api/v1/keys', 'workspace:write'],
  ['base', 'DELETE', '/api/v1/keys/key_nothing', 'workspace:write'],
  ['base', 'POST', '/api/v1/audit/aud_nothing/approve', 'workspace:write'],
  ['base', 'POST', '/api/v1/audit/aud_nothing/reject', 'workspace:write'],
  ['base', 'POST', '/api/v1/connections/start', 'connections:write'],
  ['base', 'POST', '/api/v1/connections/request', 'connections:write'],
  ['api', 'POST', '/v1/campaigns/1545984743/pause', 'campaigns:write'],
  ['api', 'PATCH', '/v1/campaigns/1545984743/budget', 'budget:write'],
] as const

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(async () => sb.close())

describe('a key without the scope gets 403 before its body is read', () => {
  it.each(ROUTES)('%s %s %s with malformed JSON: 403 SCOPE_MISSING (%s), and nothing changes', async (host, method, path, scope) => {
    const before = await sb.stateText()
    const answer = await sb[host](method, path, { key: KEYS.reporting, body: MALFORMED })
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ code: 'SCOPE_MISSING', scope })
    expect(await sb.stateText()).toBe(before)
  })

  it.each(ROUTES)('%s %s %s: a key holding the scope gets the 400 for the same body (the control case)', async (host, method, path) => {
    const answer = await sb[host](method, path, { key: KEYS.owner, body: MALFORMED })
    expect(answer.status).toBe(400)
    expect(answer.body.code).toBe('INVALID_REQUEST')
  })
})
