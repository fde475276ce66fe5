import { request } from 'node:http'
import type { RequestListener } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import { sequentialIds } from '../runtime/ids.js'
import { KEYS } from '../test-support/http.js'

// Authenticate → authorize → validate holds alike on the fast paths (`fast-runs.ts`, `fast-reads.ts`)
// and on express: two identical sandboxes, one behind each, get the same requests and must give the
// same answers, byte for byte.

interface Twin { sb: Sandbox; base: Listening; api: Listening }
async function twin(pick: (sb: Sandbox) => { base: RequestListener; api: RequestListener }): Promise<Twin> {
  const sb = await buildSandbox({ ids: sequentialIds(), wall: () => Date.parse('2030-02-03T04:05:06.000Z') })
  const listeners = pick(sb)
  return { sb, base: await listen(listeners.base, '127.0.0.1', 0), api: await listen(listeners.api, '127.0.0.1', 0) }
}
let fast: Twin
let plain: Twin
beforeAll(async () => {
  fast = await twin((sb) => ({ base: sb.baseListener, api: sb.apiListener }))
  plain = await twin((sb) => ({ base: sb.baseApp, api: sb.apiApp }))
})
afterAll(async () => {
  for (const t of [fast, plain]) await Promise.all([t.base.close(), t.api.close()])
  await Promise.all([fast.sb.close(), plain.sb.close()])
})

type Headers = Record<string, string | string[]>
// Both twins are sent one client request id, so their answers (the body's `request_id` too) can match byte for byte.
const ID = 'twin-request'
function send(url: string, method: string, headers: Headers, body?: string): Promise<{ status: number; text: string }> {
  const named: Headers = { 'request-id': ID, ...headers }
  const sent: Headers = body === undefined ? named : { ...named, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: sent }, (res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c.toString('utf8'))).on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const bad = bearer('svc_test_notARealKey000000000000000000000')
const run = (script_name: unknown, args: unknown, extra: object = {}) => JSON.stringify({ script_name, args, ...extra })

const runs: Array<[string, Headers, string, number, string]> = [
  ['no key, valid call', {}, run('pull_google_ads', ['--days', '7']), 401, 'AUTHENTICATION_REQUIRED'],
  ['no key, unknown script', {}, run('no_such_script', []), 401, 'AUTHENTICATION_REQUIRED'],
  ['no key, MCP tool name', {}, run('pull_google_ads_performance', []), 401, 'AUTHENTICATION_REQUIRED'],
  ['no key, unknown flag', {}, run('update_campaign_budget', ['--budget', '5'], { platform: 'google' }), 401, 'AUTHENTICATION_REQUIRED'],
  ['no key, flag out of bounds', {}, run('pull_google_ads', ['--days', '0']), 401, 'AUTHENTICATION_REQUIRED'],
  ['no key, platform 5', {}, run('list_campaigns', [], { platform: 5 }), 401, 'AUTHENTICATION_REQUIRED'],
  ['no key, platform meta', {}, run('list_campaigns', [], { platform: 'meta' }), 401, 'AUTHENTICATION_REQUIRED'],
  ['bad key, wrong types', bad, run(5, '--days 7'), 401, 'AUTHENTICATION_REQUIRED'],
  ['X-API-Key bad key, unknown script', { 'x-api-key': 'svc_test_nope' }, run('no_such_script', []), 401, 'AUTHENTICATION_REQUIRED'],
  ['two different keys', { ...bearer(KEYS.owner), 'x-service-key': KEYS.agent }, run('no_such_script', []), 400, 'MULTIPLE_CREDENTIALS'],
  ['a key without the script scope, unknown flag', bearer(KEYS.reporting), run('update_campaign_budget', ['--budget', '5'], { platform: 'google' }), 403, 'SCOPE_MISSING'],
  ['a valid key, unknown script', bearer(KEYS.owner), run('no_such_script', []), 400, 'UNKNOWN_SCRIPT'],
  ['a valid key, unknown flag', bearer(KEYS.owner), run('update_campaign_budget', ['--budget', '5'], { platform: 'google' }), 400, 'UNRECOGNIZED_ARGS'],
  ['a valid key, platform 5', bearer(KEYS.owner), run('list_campaigns', [], { platform: 5 }), 400, 'INVALID_REQUEST'],
]

describe('POST /api/v1/tools/run answers alike on the fast path and express', () => {
  it.each(runs)('%s → %i %s', async (_name, headers, body, status, code) => {
    const [a, b] = await Promise.all([fast, plain].map((t) => send(`${t.base.url}/api/v1/tools/run`, 'POST', headers, body)))
    expect(a).toEqual(b)
    expect(a.status).toBe(status)
    expect(JSON.parse(a.text)).toMatchObject({ code, request_id: ID })
  })
})

const lists: Array<[string, Headers, string, number, string]> = [
  ['no key, valid query', {}, '', 401, 'AUTHENTICATION_REQUIRED'],
  ['no key, bad status and limit', {}, '?status=bogus&limit=0', 401, 'AUTHENTICATION_REQUIRED'],
  ['bad key, platform meta', bad, '?platform=meta', 401, 'AUTHENTICATION_REQUIRED'],
  ['a valid key, bad limit', bearer(KEYS.owner), '?limit=0', 400, 'INVALID_REQUEST'],
  ['a valid key, platform meta', bearer(KEYS.owner), '?platform=meta', 400, 'UNSUPPORTED_PLATFORM'],
]

describe('GET /v1/campaigns answers alike on the fast path and express', () => {
  it.each(lists)('%s → %i %s', async (_name, headers, query, status, code) => {
    const [a, b] = await Promise.all([fast, plain].map((t) => send(`${t.api.url}/v1/campaigns${query}`, 'GET', headers)))
    expect(a).toEqual(b)
    expect({ status: a.status, code: JSON.parse(a.text).code, id: JSON.parse(a.text).request_id }).toEqual({ status, code, id: ID })
  })
})
