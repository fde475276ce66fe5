import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

/** Issue 18 item 4: small mistakes get answers that say what to do instead. */

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())

const run = (headers: Record<string, string>, script = 'list_campaigns') =>
  fetch(`${sb.baseUrl}/api/v1/tools/run`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ script_name: script, args: [], platform: 'google' }) })
const me = (headers: Record<string, string>) => fetch(`${sb.apiUrl}/v1/me`, { headers })

describe('GET / on either host', () => {
  it.each(['base', 'api'] as const)('the %s host answers a JSON map of the sandbox, without the person\'s side', async (host) => {
    const res = await fetch(`${host === 'base' ? sb.baseUrl : sb.apiUrl}/`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      name: 'adops-sandbox', host, base_url: sb.baseUrl, api_url: sb.apiUrl, mcp: `${sb.baseUrl}/mcp`, docs: `${sb.baseUrl}/docs/getting-started.md`,
    })
  })

  it.each(['base', 'api'] as const)('the %s host names the console and control plane to a request with the admin token (issue 33)', async (host) => {
    const res = await fetch(`${host === 'base' ? sb.baseUrl : sb.apiUrl}/`, { headers: { 'x-sandbox-admin': sb.adminToken! } })
    expect(await res.json()).toMatchObject({
      console: `${sb.baseUrl}/_sandbox/console/`, control_plane: `${sb.baseUrl}/_sandbox`, openapi: `${sb.baseUrl}/_sandbox/openapi.yaml`,
    })
  })

  it('answers a browser with a page that links the manual and MCP, not the console', async () => {
    const res = await fetch(`${sb.apiUrl}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain(`href="${sb.baseUrl}/docs/getting-started.md"`)
    expect(html).not.toContain('/_sandbox')
  })

  it('serves the manual it links to, and nothing else from disk', async () => {
    const page = await fetch(`${sb.baseUrl}/docs/getting-started.md`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/markdown/)
    expect(await page.text()).toMatch(/^# Getting started/)
    for (const path of ['/docs/..%2Fpackage.json', '/docs/../package.json', '/docs/missing.md', '/docs/']) {
      const res = await fetch(`${sb.baseUrl}${path}`)
      expect(res.status, path).toBe(404)
      expect((await res.json()).code, path).toBe('ROUTE_NOT_FOUND')
    }
  })
})

describe('a path on the wrong host', () => {
  it.each([
    ['a /v1 path on the base host names the api host', () => fetch(`${sb.baseUrl}/v1/campaigns`), () => `${sb.apiUrl}/v1/campaigns`],
    ['a /api/v1 path on the api host names the base host', () => fetch(`${sb.apiUrl}/api/v1/keys`), () => `${sb.baseUrl}/api/v1/keys`],
  ])('%s', async (_name, send, url) => {
    const res = await send()
    expect(res.status).toBe(404)
    const body = await res.json()
    expect(body.code).toBe('ROUTE_NOT_FOUND')
    expect(body.error).toContain(url())
  })
})

describe('a credential sent the wrong way', () => {
  it.each([
    ['Authorization without Bearer, on the dispatcher', () => run({ authorization: KEYS.owner }), /Authorization header carries no Bearer key; send `Authorization: Bearer <key>`/],
    ['Authorization without Bearer, on a resource', () => me({ authorization: KEYS.owner }), /Authorization header carries no Bearer key/],
    ['X-API-Key on a resource endpoint', () => me({ 'x-api-key': KEYS.owner }), /`X-API-Key: <key>` is not read on this endpoint; send `Authorization: Bearer <key>` or `X-Service-Key: <key>`/],
    ['a live-looking key', () => run({ authorization: `Bearer svc_${'A'.repeat(32)}` }), /looks like a live key .*only svc_test_ keys work/],
    ['nothing at all', () => me({}), /no API key was sent/],
  ])('%s: 401 that says what to send instead, never the value', async (_name, send, message) => {
    const res = await send()
    expect(res.status).toBe(401)
    const body = await res.json()
    expect(body).toEqual({
      error: expect.stringMatching(message), code: 'AUTHENTICATION_REQUIRED', request_id: res.headers.get('request-id'),
      message: body.error, error_description: body.error, accepted_headers: expect.arrayContaining(['Authorization', 'X-Service-Key']),
    })
    expect(body.error).toContain('`X-Service-Key: <key>`')
    expect(body.error).not.toContain(KEYS.owner)
    expect(body.error).not.toContain('A'.repeat(32))
  })
})

describe('an unknown script', () => {
  it('gets a did-you-mean from the catalog when the caller is known', async () => {
    const res = await run({ authorization: `Bearer ${KEYS.owner}` }, 'list_campains')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'UNKNOWN_SCRIPT', did_you_mean: 'list_campaigns', error: expect.stringContaining('Did you mean `list_campaigns`?') })
  })

  it('gets no hint when nothing is close', async () => {
    const body = await (await run({ authorization: `Bearer ${KEYS.owner}` }, 'frobnicate_everything_now')).json()
    expect(body.code).toBe('UNKNOWN_SCRIPT')
    expect(body.did_you_mean).toBeUndefined()
  })

  it('tells an anonymous caller nothing about the catalog: 401 first', async () => {
    const res = await run({}, 'list_campains')
    expect(res.status).toBe(401)
    expect(JSON.stringify(await res.json())).not.toContain('list_campaigns')
  })
})
