import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

let sb: TestSandbox

beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())
beforeEach(async () => {
  await sb.control.reset('default')
  await sb.control.clearJournal()
})

const addFault = (body: unknown) => sb.base('POST', '/_sandbox/faults', { body })
const pull = (key: string = KEYS.owner, script_name = 'pull_google_ads') =>
  sb.base('POST', '/api/v1/tools/run', { key, body: { script_name, args: [] } })

describe('scripted faults', () => {
  it('plays an ordered sequence "429, 429, then pass through" and marks the touched exchanges in the journal', async () => {
    const rule = await addFault({ match: { path: '/api/v1/tools/run' }, sequence: [{ status: 429 }, { status: 429, headers: { 'Retry-After': '3' } }, { pass: true, times: null }] })
    expect(rule.status).toBe(201)
    const answers = [await pull(), await pull(), await pull(), await pull()]
    expect(answers.map((a) => a.status)).toEqual([429, 429, 200, 200])
    expect(answers[0].headers.get('retry-after')).toBe('1')
    expect(answers[1].headers.get('retry-after')).toBe('3')
    expect(answers[0].body).toMatchObject({ code: 'RATE_LIMITED', fault_id: rule.body.id })
    const journal = await sb.control.journal({ path: '/api/v1/tools/run' })
    expect(journal.map((e) => e.fault)).toEqual([`${rule.body.id}#1`, `${rule.body.id}#2`, null, null])
    const listed = (await sb.base('GET', '/_sandbox/faults')).body.faults[0]
    expect(listed).toMatchObject({ hits: 4, exhausted: false, next_step: 3 })
  })

  it('a single response fires `times` times, then the rule is spent and requests pass through', async () => {
    await addFault({ match: { method: 'get', host: 'api', path: '/v1/campaigns*' }, status: 503, times: 2 })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await sb.api('GET', '/v1/campaigns', { key: KEYS.owner })).status)
    expect(statuses).toEqual([503, 503, 200])
    expect((await sb.base('GET', '/_sandbox/faults')).body.faults[0]).toMatchObject({ exhausted: true, next_step: null })
  })

  it.each([
    ['script name (an alias matches its canonical script)', { script_name: 'pull_google_ads' }, () => pull(KEYS.owner, 'pull_google_ads_data'), () => pull(KEYS.owner, 'google_ads_list_customers')],
    ['key prefix', { key_prefix: 'svc_test_rep' }, () => pull(KEYS.reporting), () => pull(KEYS.owner)],
    ['workspace', { workspace_id: 'ws_acme' }, () => pull(KEYS.owner), () => pull('svc_test_unknownKey00000000000000000000')],
    ['host', { host: 'api' }, () => sb.api('GET', '/v1/me', { key: KEYS.owner }), () => sb.base('GET', '/api/v1/keys', { key: KEYS.owner })],
  ])('matches on %s', async (_name, match, hit, miss) => {
    await addFault({ match, status: 418, body: { teapot: true } })
    const missed = await miss()
    expect(missed.status).not.toBe(418)
    const hitAnswer = await hit()
    expect(hitAnswer.status).toBe(418)
    expect(hitAnswer.body).toEqual({ teapot: true })
  })

  it('drops the connection and records the exchange with status 0', async () => {
    await addFault({ match: { path: '/v1/me' }, drop: true, times: 1 })
    await expect(sb.api('GET', '/v1/me', { key: KEYS.owner })).rejects.toThrow()
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
    const journal = await sb.control.journal({ path: '/v1/me' })
    expect(journal[0]).toMatchObject({ status: 0, fault: expect.stringMatching(/#1$/) })
  })

  it('is scriptable from the typed control client', async () => {
    const rule = await sb.control.addFault({ match: { host: 'api', path: '/v1/credits' }, status: 402, times: 1 })
    expect((await sb.api('GET', '/v1/credits', { key: KEYS.owner })).status).toBe(402)
    expect((await sb.control.faults()).faults).toEqual([expect.objectContaining({ id: rule.id, hits: 1, exhausted: true })])
    expect(await sb.control.clearFaults()).toEqual({ removed: 1 })
    expect(await sb.control.setCredits('ws_acme', { balance: 7 })).toMatchObject({ balance: 7 })
    expect(await sb.control.setRateLimits('ws_acme', { per_key: { capacity: 1, refill_per_second: 1 } })).toMatchObject({ per_workspace: null })
  })

  it('delays and then passes through, marked in the journal', async () => {
    await addFault({ match: { path: '/v1/me' }, delay_ms: 20, times: 1 })
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
    expect((await sb.control.journal({ path: '/v1/me' }))[0].fault).toMatch(/#1$/)
  })

  it('never touches the control plane, and deletes one rule or all', async () => {
    const a = await addFault({ status: 500 })
    await addFault({ status: 502 })
    expect((await sb.base('GET', '/_sandbox/clock')).status).toBe(200)
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).body).toMatchObject({ code: 'INTERNAL_ERROR' })
    expect((await sb.base('DELETE', `/_sandbox/faults/${a.body.id}`)).body).toMatchObject({ removed: true })
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(502)
    expect((await sb.base('DELETE', '/_sandbox/faults')).body).toEqual({ removed: 1 })
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
    expect((await sb.base('DELETE', '/_sandbox/faults/flt_nope')).status).toBe(404)
  })

  it.each([
    [{}],
    [{ status: 99 }],
    [{ status: 500, sequence: [{ status: 429 }] }],
    [{ sequence: [] }],
    [{ sequence: [{ times: 2 }] }],
    [{ sequence: [{ pass: true, status: 500 }] }],
    [{ status: 500, delay_ms: 999_999 }],
    [{ match: { path: '/x', colour: 'red' }, status: 500 }],
    ['not json'],
  ])('refuses a bad rule %j with a 400 and adds nothing', async (body) => {
    const res = await addFault(body)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('INVALID_REQUEST')
    expect((await sb.base('GET', '/_sandbox/faults')).body.faults).toEqual([])
  })
})
