import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, campaignsByStatus, startSandbox } from '../test-support/http.js'
import { parsePrefer } from './prefer.js'

/** Issue 19 item 4: `Prefer: code=<status>` answers that status once, runs nothing, charges nothing. */

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())
beforeEach(async () => {
  await sb.control.reset('default')
  await sb.control.clearJournal()
})

const balance = async () => (await sb.api('GET', '/v1/credits', { key: KEYS.owner })).body.balance as number
const pause = (id: string, headers: Record<string, string>, key: string | null = KEYS.owner) =>
  fetch(`${sb.baseUrl}/api/v1/tools/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: JSON.stringify({ script_name: 'pause_campaign', args: ['--campaign-id', id], platform: 'google' }),
  })

describe('Prefer: code=<status>', () => {
  it.each([
    [429, 'RATE_LIMITED', { retry_after: 1, scope: 'key' }, { 'retry-after': '1' }],
    [402, 'INSUFFICIENT_CREDITS', { needed: 1, balance: 0 }, {}],
    [500, 'INTERNAL_ERROR', {}, {}],
    [404, 'NOT_FOUND', {}, {}],
  ] as const)('answers %i %s on the dispatcher, runs nothing and charges nothing', async (status, code, fields, headers) => {
    const { enabled } = await campaignsByStatus(sb)
    const before = await balance()
    const res = await pause(enabled, { prefer: `code=${status}` })
    expect(res.status).toBe(status)
    expect(await res.json()).toMatchObject({ error: expect.any(String), code, ...fields })
    expect(res.headers.get('preference-applied')).toBe(`code=${status}`)
    for (const [name, value] of Object.entries(headers)) expect(res.headers.get(name)).toBe(value)
    expect(await balance()).toBe(before)
    const { enabled: still } = await campaignsByStatus(sb)
    expect(still).toBe(enabled)
    const [entry] = await sb.control.journal({ path: '/api/v1/tools/run' })
    expect(entry).toMatchObject({ status, fault: `prefer:code=${status}` })
  })

  it('answers on the api host too, and only once: the next request is normal', async () => {
    const first = await fetch(`${sb.apiUrl}/v1/campaigns`, { headers: { authorization: `Bearer ${KEYS.owner}`, prefer: 'code=429' } })
    expect(first.status).toBe(429)
    const second = await fetch(`${sb.apiUrl}/v1/campaigns`, { headers: { authorization: `Bearer ${KEYS.owner}` } })
    expect(second.status).toBe(200)
  })

  it('gives an anonymous caller the route\'s 401 whatever it prefers', async () => {
    const { enabled } = await campaignsByStatus(sb)
    const res = await pause(enabled, { prefer: 'code=429' }, null)
    expect(res.status).toBe(401)
    expect((await res.json()).code).toBe('AUTHENTICATION_REQUIRED')
    expect(res.headers.get('preference-applied')).toBeNull()
  })

  it.each([
    ['code=200', /code=200 \(code must be one of 400, 401, 402, 403, 404, 409, 429, 500\)/],
    ['dynamic=true', /dynamic=true \(not supported here\)/],
    ['return=minimal, code=abc', /return=minimal \(not supported here\), code=abc \(code must be one of/],
  ])('reports %s as ignored in Preference-Ignored and answers normally', async (prefer, ignored) => {
    const res = await fetch(`${sb.apiUrl}/v1/me`, { headers: { authorization: `Bearer ${KEYS.owner}`, prefer } })
    expect(res.status).toBe(200)
    expect(res.headers.get('preference-ignored')).toMatch(ignored)
    expect(res.headers.get('preference-applied')).toBeNull()
  })

  it('leaves the control plane and the MCP endpoint alone', async () => {
    const res = await fetch(`${sb.baseUrl}/_sandbox/clock`, { headers: { prefer: 'code=500', 'x-sandbox-admin': sb.adminToken! } })
    expect(res.status).toBe(200)
  })

  it('parses RFC 7240 preferences with parameters and quotes', () => {
    expect(parsePrefer(['code="429"; foo=bar', 'Return=minimal']).map(({ name, value }) => [name, value])).toEqual([['code', '429'], ['return', 'minimal']])
  })
})
