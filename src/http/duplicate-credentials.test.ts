import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

// Node keeps only the first `Authorization` line and joins other repeated headers; credentials are
// read from the raw header lines, so two lines with different keys are refused (RULES.md
// Authentication, MULTIPLE_CREDENTIALS) on the express routes and on both fast paths alike.

interface Raw { status: number; requestId: unknown; body: { code?: string; [k: string]: unknown } }

/** Sends each header line as given (node:http writes one line per array item). */
function send(origin: string, method: string, path: string, headers: Record<string, string | string[]>, body?: unknown): Promise<Raw> {
  const text = body === undefined ? undefined : JSON.stringify(body)
  const allHeaders = text === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers: allHeaders }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode ?? 0, requestId: res.headers['request-id'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
    })
    req.on('error', reject)
    req.end(text)
  })
}

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())

const bearer = (key: string) => `Bearer ${key}`
const endpoints = [
  ['GET /v1/me (express)', 'api', 'GET', '/v1/me', undefined],
  ['GET /v1/campaigns (fast read)', 'api', 'GET', '/v1/campaigns', undefined],
  ['POST /api/v1/tools/run (fast run)', 'base', 'POST', '/api/v1/tools/run', { script_name: 'pull_google_ads', args: ['--days', '1'] }],
  ['POST /v1/tools/run (express)', 'api', 'POST', '/v1/tools/run', { script_name: 'pull_google_ads', args: ['--days', '1'] }],
] as const

const lines: Array<[string, Record<string, string[]>, number, string?]> = [
  ['two Authorization lines with different keys', { authorization: [bearer(KEYS.owner), bearer(KEYS.agent)] }, 400, 'MULTIPLE_CREDENTIALS'],
  ['two Authorization lines with the same key', { authorization: [bearer(KEYS.owner), bearer(KEYS.owner)] }, 200],
  ['two X-Service-Key lines with different keys', { 'x-service-key': [KEYS.owner, KEYS.agent] }, 400, 'MULTIPLE_CREDENTIALS'],
  ['two X-Service-Key lines with the same key', { 'x-service-key': [KEYS.owner, KEYS.owner] }, 200],
  ['a Basic line next to a Bearer line', { authorization: [`Basic ${KEYS.agent}`, bearer(KEYS.owner)] }, 200],
  ['two different bad keys', { authorization: [bearer('svc_test_a'), bearer('svc_test_b')] }, 400, 'MULTIPLE_CREDENTIALS'],
]

describe('repeated credential header lines', () => {
  describe.each(endpoints)('%s', (_name, host, method, path, body) => {
    it.each(lines)('%s → %i', async (_label, headers, status, code) => {
      const answer = await send(host === 'api' ? sb.apiUrl : sb.baseUrl, method, path, headers, body)
      expect(answer.status).toBe(status)
      if (code) expect(answer.body).toEqual({ error: expect.any(String), code, headers: expect.any(Array), request_id: answer.requestId })
    })
  })

  it('refuses two X-API-Key lines with different keys on the tools endpoints only', async () => {
    const headers = { 'x-api-key': [KEYS.owner, KEYS.agent] }
    const tools = await send(sb.baseUrl, 'POST', '/api/v1/tools/run', headers, { script_name: 'pull_google_ads', args: [] })
    expect(tools.body).toMatchObject({ code: 'MULTIPLE_CREDENTIALS', headers: ['X-Api-Key'] })
    // X-API-Key is no credential on a resource endpoint (AUTH-02): nothing was sent.
    expect((await send(sb.apiUrl, 'GET', '/v1/me', headers)).body).toMatchObject({ code: 'AUTHENTICATION_REQUIRED' })
    expect((await send(sb.baseUrl, 'GET', '/api/v1/tools/run', { 'x-api-key': [KEYS.owner, KEYS.owner] })).status).toBe(200)
  })
})
