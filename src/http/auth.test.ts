import express from 'express'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, call, startSandbox } from '../test-support/http.js'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import { callerOf } from './auth.js'
import { errorHandler } from './error-handler.js'
import type { Surface } from './credentials.js'

const WORKSPACE_MESSAGE = 'This API key is not scoped to a workspace.'

describe('credential headers per surface (AUTH-01..03, MULTIPLE_CREDENTIALS)', () => {
  // The tools endpoints belong to the dispatcher; the surface rules live here, so they are checked on a probe route.
  let built: Sandbox
  let server: Server
  let origin: string
  beforeAll(async () => {
    built = await buildSandbox()
    const app = express()
    app.get('/probe/:surface', (req, res) => {
      const caller = callerOf(built.ctx, req, req.params.surface as Surface)
      res.json({ key_id: caller.key.id, user: caller.user.id })
    })
    app.use(errorHandler(built.ctx.logger))
    server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.close()
    await built.close()
  })

  const other = KEYS.reporting
  const cases: Array<[string, Surface, Record<string, string>, number, string?]> = [
    ['tools accepts Authorization: Bearer', 'tools', { authorization: `Bearer ${KEYS.owner}` }, 200],
    ['tools accepts X-Service-Key', 'tools', { 'x-service-key': KEYS.owner }, 200],
    ['tools accepts X-API-Key', 'tools', { 'x-api-key': KEYS.owner }, 200],
    ['resource accepts Authorization: Bearer', 'resource', { authorization: `Bearer ${KEYS.owner}` }, 200],
    ['resource accepts X-Service-Key', 'resource', { 'x-service-key': KEYS.owner }, 200],
    ['resource treats X-API-Key as no credential', 'resource', { 'x-api-key': KEYS.owner }, 401, 'AUTHENTICATION_REQUIRED'],
    ['resource ignores X-API-Key next to a Bearer key', 'resource', { authorization: `Bearer ${KEYS.owner}`, 'x-api-key': other }, 200],
    ['artifact accepts only X-Service-Key', 'artifact', { 'x-service-key': KEYS.owner }, 200],
    ['artifact ignores Authorization', 'artifact', { authorization: `Bearer ${KEYS.owner}` }, 401, 'AUTHENTICATION_REQUIRED'],
    ['two different keys are 400', 'resource', { authorization: `Bearer ${KEYS.owner}`, 'x-service-key': other }, 400, 'MULTIPLE_CREDENTIALS'],
    ['two different keys on tools are 400', 'tools', { 'x-service-key': KEYS.owner, 'x-api-key': other }, 400, 'MULTIPLE_CREDENTIALS'],
    ['the same key twice is fine', 'tools', { authorization: `Bearer ${KEYS.owner}`, 'x-service-key': KEYS.owner, 'x-api-key': KEYS.owner }, 200],
    ['no credential is 401', 'tools', {}, 401, 'AUTHENTICATION_REQUIRED'],
    ['a non-Bearer Authorization is no credential', 'resource', { authorization: `Basic ${KEYS.owner}` }, 401, 'AUTHENTICATION_REQUIRED'],
    ['an unknown key is 401', 'resource', { authorization: 'Bearer svc_test_unknown0000000000000000000000' }, 401, 'AUTHENTICATION_REQUIRED'],
  ]
  it.each(cases)('%s', async (_name, surface, headers, status, code) => {
    const answer = await call(origin, 'GET', `/probe/${surface}`, { headers })
    expect(answer.status).toBe(status)
    if (code) expect(answer.body).toMatchObject({ code, error: expect.any(String) })
    else expect(answer.body.user).toBe('usr_olivia')
  })
})

describe('authentication and workspaces over HTTP', () => {
  let sb: TestSandbox
  beforeEach(async () => {
    sb = await startSandbox()
  })
  afterEach(async () => {
    await sb.close()
  })

  it.each([
    ['GET', '/v1/me', 'api'], ['GET', '/v1/credits', 'api'], ['GET', '/v1/connections', 'api'], ['GET', '/api/v1/keys', 'base'],
  ] as const)('%s %s answers 401 with {error, code} without a key, and X-API-Key alone counts as none (AUTH-02, AUTH-03)', async (method, path, host) => {
    for (const headers of [{}, { 'x-api-key': KEYS.owner }] as Array<Record<string, string>>) {
      const answer = await sb[host](method, path, { headers })
      expect(answer.status).toBe(401)
      expect(answer.body).toEqual({
        error: expect.stringMatching(/API key/), code: 'AUTHENTICATION_REQUIRED', request_id: answer.headers.get('request-id'),
        message: answer.body.error, error_description: answer.body.error, accepted_headers: ['Authorization', 'X-Service-Key'],
      })
    }
  })

  it('accepts X-Service-Key on resource endpoints and rejects two different credentials with 400 (AUTH-02)', async () => {
    expect((await sb.api('GET', '/v1/me', { headers: { 'x-service-key': KEYS.owner } })).status).toBe(200)
    const both = await sb.api('GET', '/v1/me', { headers: { authorization: `Bearer ${KEYS.owner}`, 'x-service-key': KEYS.agent } })
    expect(both.status).toBe(400)
    expect(both.body.code).toBe('MULTIPLE_CREDENTIALS')
    const same = await sb.api('GET', '/v1/me', { headers: { authorization: `Bearer ${KEYS.owner}`, 'x-service-key': KEYS.owner } })
    expect(same.status).toBe(200)
  })

  it('enforces scopes on /v1 with 403 SCOPE_MISSING naming the scope (AUTH-04)', async () => {
    const refused = await sb.api('GET', '/v1/connections', { key: KEYS.reporting })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'SCOPE_MISSING', scope: 'connections:read' })
    const allowed = await sb.api('GET', '/v1/connections', { key: KEYS.agent })
    expect(allowed.status).toBe(200)
    expect(allowed.body.connections.map((c: { id: string }) => c.id)).toEqual(['conn_google_acme'])
  })

  it('answers /v1/me with the key record, user and workspace, never the value (REST-03, KEY-02)', async () => {
    const me = await sb.api('GET', '/v1/me', { key: KEYS.agent })
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({
      key: { name: 'agent', prefix: 'svc_test_age', workspace_id: 'ws_acme', user_id: 'usr_olivia' },
      user: { id: 'usr_olivia', email: 'olivia@acme.test' },
      workspace: { id: 'ws_acme', name: 'Acme Outdoor' },
    })
    expect(me.text).not.toContain(KEYS.agent)
  })

  it('answers /v1/credits with the workspace balance (REST-03)', async () => {
    const credits = await sb.api('GET', '/v1/credits', { key: KEYS.reporting })
    expect(credits.body).toMatchObject({ workspace_id: 'ws_acme', balance: 1000, payment_method: true })
  })

  it('stops a pinned key with 403 once its user leaves the workspace, while /v1/me still answers (KEY-10)', async () => {
    expect((await sb.base('GET', '/api/v1/keys', { key: KEYS.reviewer })).status).toBe(200)
    const memberships = await sb.base('GET', '/_sandbox/memberships')
    const rey = memberships.body.memberships.find((m: { user_id: string }) => m.user_id === 'usr_rey')
    expect((await sb.base('DELETE', `/_sandbox/memberships/${rey.id}`)).status).toBe(200)
    for (const answer of [await sb.base('GET', '/api/v1/keys', { key: KEYS.reviewer }), await sb.api('GET', '/v1/credits', { key: KEYS.reviewer })]) {
      expect(answer.status).toBe(403)
      expect(answer.body.code).toBe('WORKSPACE_ACCESS_DENIED')
    }
    const me = await sb.api('GET', '/v1/me', { key: KEYS.reviewer })
    expect(me.status).toBe(200)
    expect(me.body.workspace).toBeNull()
    expect(me.body.workspace_error).toMatch(/ws_acme/)
    await sb.base('POST', '/_sandbox/memberships', { body: { user_id: 'usr_rey', workspace_id: 'ws_acme' } })
    expect((await sb.base('GET', '/api/v1/keys', { key: KEYS.reviewer })).status).toBe(200)
  })

  it('refuses an unpinned key of a multi-workspace user with 403 and the exact spec message (KEY-11)', async () => {
    await sb.control.reset('multi-workspace')
    for (const answer of [await sb.base('GET', '/api/v1/keys', { key: KEYS.alexUnpinned }), await sb.api('GET', '/v1/credits', { key: KEYS.alexUnpinned })]) {
      expect(answer.status).toBe(403)
      expect(answer.body).toMatchObject({ error: WORKSPACE_MESSAGE, code: 'WORKSPACE_SCOPE_REQUIRED' })
    }
    const me = await sb.api('GET', '/v1/me', { key: KEYS.alexUnpinned })
    expect(me.body).toMatchObject({ workspace: null, workspace_error: WORKSPACE_MESSAGE })
    const casey = await sb.api('GET', '/v1/credits', { key: KEYS.caseyUnpinned })
    expect(casey.body).toMatchObject({ workspace_id: 'ws_client_a', balance: 800 })
  })

  it('refuses an unpinned key as soon as its user joins a second workspace (KEY-11)', async () => {
    expect((await sb.api('GET', '/v1/credits', { key: KEYS.signup })).status).toBe(200)
    await sb.base('POST', '/_sandbox/workspaces', { body: { name: 'Second', owner_user_id: 'usr_olivia' } })
    const refused = await sb.api('GET', '/v1/credits', { key: KEYS.signup })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(WORKSPACE_MESSAGE)
    expect((await sb.api('GET', '/v1/credits', { key: KEYS.owner })).status).toBe(200)
  })

  it('lets no header or query parameter switch the workspace (KEY-12)', async () => {
    await sb.control.reset('multi-workspace')
    const tries = [
      { headers: { 'x-workspace-id': 'ws_client_b', 'x-workspace': 'ws_client_b' } },
      { query: '?workspace_id=ws_client_b&workspace=ws_client_b' },
    ]
    for (const t of tries) {
      const credits = await sb.api('GET', `/v1/credits${t.query ?? ''}`, { key: KEYS.alexClientA, headers: t.headers })
      expect(credits.body).toMatchObject({ workspace_id: 'ws_client_a', balance: 800 })
      const keys = await sb.base('GET', `/api/v1/keys${t.query ?? ''}`, { key: KEYS.alexClientA, headers: t.headers })
      expect(keys.body.workspace_id).toBe('ws_client_a')
      const connections = await sb.api('GET', `/v1/connections${t.query ?? ''}`, { key: KEYS.alexClientA, headers: t.headers })
      expect(connections.body.connections.map((c: { id: string }) => c.id)).toEqual(['conn_google_client_a'])
    }
  })

  it.each(['GET', 'POST', 'DELETE', 'PATCH'])('answers %s {api_url}/api/v1/* with a JSON 404, even with a key or a bad body (REST-04)', async (method) => {
    for (const path of ['/api/v1/keys', '/api/v1/tools/run', '/api/v1/keys/key_1', '/api']) {
      const answer = await sb.api(method, path, { key: KEYS.owner, body: method === 'GET' ? undefined : '{not json' })
      expect(answer.status).toBe(404)
      expect(answer.body).toMatchObject({ code: 'ROUTE_NOT_FOUND', error: expect.any(String) })
    }
  })
})
