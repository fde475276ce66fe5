import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { RestClient } from '../client/rest-client.js'
import { ServiceError } from '../client/errors.js'

/** Issue 19 item 2: every answer names its request; errors carry the id; the journal finds it. */

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())
beforeEach(() => sb.control.clearJournal())

const auth = { authorization: `Bearer ${KEYS.owner}` }

describe('Request-Id', () => {
  it.each([
    ['a fast read on the api host', () => fetch(`${sb.apiUrl}/v1/campaigns`, { headers: auth })],
    ['a route on the api host', () => fetch(`${sb.apiUrl}/v1/me`, { headers: auth })],
    ['the fast dispatcher', () => fetch(`${sb.baseUrl}/api/v1/tools/run`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"script_name":"list_campaigns","args":[],"platform":"google"}' })],
    ['a route on the base host', () => fetch(`${sb.baseUrl}/api/v1/keys`, { headers: auth })],
    ['the control plane', () => fetch(`${sb.baseUrl}/_sandbox/clock`)],
    ['hosted MCP', () => fetch(`${sb.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}' })],
  ])('names %s', async (_name, send) => {
    const res = await send()
    expect(res.headers.get('request-id')).toMatch(/^req_[A-Za-z0-9_-]{12}$/)
  })

  it.each([
    ['an anonymous fast read', () => fetch(`${sb.apiUrl}/v1/campaigns`)],
    ['an express 404', () => fetch(`${sb.apiUrl}/v1/nothing`, { headers: auth })],
    ['an anonymous dispatcher call', () => fetch(`${sb.baseUrl}/api/v1/tools/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })],
  ])('names %s, and the journal finds the exchange by its id', async (_name, send) => {
    const res = await send()
    const id = res.headers.get('request-id')
    expect(id).toMatch(/^req_/)
    const found = await sb.control.journal({ request_id: id! })
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ request_id: id, status: res.status })
  })

  it('echoes a valid id the client sent, and replaces an invalid one', async () => {
    const mine = await fetch(`${sb.apiUrl}/v1/me`, { headers: { ...auth, 'request-id': 'ci-run-42:step.7' } })
    expect(mine.headers.get('request-id')).toBe('ci-run-42:step.7')
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', KEYS.owner, `ci-${KEYS.agent}`]) {
      const res = await fetch(`${sb.apiUrl}/v1/me`, { headers: { ...auth, 'x-request-id': bad } })
      expect(res.headers.get('request-id')).toMatch(/^req_/)
    }
  })

  it.each([
    ['a fast read', () => fetch(`${sb.apiUrl}/v1/campaigns?limit=0`, { headers: auth })],
    ['an express route', () => fetch(`${sb.apiUrl}/v1/campaigns/0000000000`, { headers: auth })],
    ['the fast dispatcher', () => fetch(`${sb.baseUrl}/api/v1/tools/run`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"script_name":"nope","args":[]}' })],
    ['a Prefer answer', () => fetch(`${sb.apiUrl}/v1/me`, { headers: { ...auth, prefer: 'code=429' } })],
    ['the control plane', () => fetch(`${sb.baseUrl}/_sandbox/journal?limit=abc`)],
    ['a body over the limit', () => fetch(`${sb.baseUrl}/api/v1/keys`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(1_100_000) }) })],
  ])('repeats the id in the error body of %s', async (_name, send) => {
    const res = await send()
    expect(res.status).toBeGreaterThanOrEqual(400)
    const body = await res.json()
    expect(body).toMatchObject({ error: expect.any(String), code: expect.any(String), request_id: res.headers.get('request-id') })
    expect(body.request_id).toMatch(/^req_/)
  })

  it('puts the id of a hosted-MCP JSON-RPC error in error.data, and echoes a client id in the body', async () => {
    const mcp = await fetch(`${sb.baseUrl}/mcp`, { method: 'DELETE', headers: { 'x-service-key': KEYS.owner } })
    expect(await mcp.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { request_id: mcp.headers.get('request-id') } } })
    const mine = await fetch(`${sb.apiUrl}/v1/me`, { headers: { 'request-id': 'ci-run-42:step.8' } })
    expect(await mine.json()).toMatchObject({ code: 'AUTHENTICATION_REQUIRED', request_id: 'ci-run-42:step.8' })
  })

  it('reaches the reference client from the body when a proxy dropped the header', async () => {
    const stripping: typeof fetch = async (input, init) => {
      const res = await fetch(input, init)
      const headers = new Headers(res.headers)
      headers.delete('request-id')
      return new Response(await res.text(), { status: res.status, headers })
    }
    const client = new RestClient({ apiKey: KEYS.reporting, baseUrl: sb.baseUrl, apiUrl: sb.apiUrl, fetch: stripping })
    const error = await client.execute('pause_campaign', { campaign_id: '1' }, 'google').catch((e: unknown) => e) as ServiceError
    expect(error.requestId).toMatch(/^req_/)
    expect(await sb.control.journal({ request_id: error.requestId! })).toHaveLength(1)
  })

  it('reaches the reference client\'s errors', async () => {
    const client = new RestClient({ apiKey: KEYS.reporting, baseUrl: sb.baseUrl, apiUrl: sb.apiUrl })
    const error = await client.execute('pause_campaign', { campaign_id: '1' }, 'google').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceError)
    const { requestId } = error as ServiceError
    expect(requestId).toMatch(/^req_/)
    expect(await sb.control.journal({ request_id: requestId! })).toHaveLength(1)
  })
})
