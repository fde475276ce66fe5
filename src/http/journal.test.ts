import v8 from 'node:v8'
import vm from 'node:vm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

v8.setFlagsFromString('--expose-gc')
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { ANONYMOUS_BODY_CAP, BODY_CAP } from './journal-body.js'
import { Journal } from './journal.js'
import { exchangeEntry } from './journal-entry.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startSandbox({ journalLimit: 5 })
})
afterEach(async () => {
  await sb.close()
})

describe('request journal', () => {
  it('records method, host, path, status, timing, sandbox time, key prefix and redacted bodies', async () => {
    await sb.control.freezeClock()
    await sb.control.setClock('2030-02-03T04:05:06.000Z')
    await sb.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'j', scopes: ['tools:read'] } })
    const [entry] = await sb.control.journal({ path: '/api/v1/keys' })
    expect(entry).toMatchObject({
      host: 'base', method: 'POST', path: '/api/v1/keys', status: 201, sandbox_time: '2030-02-03T04:05:06.000Z',
      key_prefix: 'svc_test_own', duration_ms: expect.any(Number),
      request: { headers: { authorization: 'Bearer svc_test_own…[redacted]' }, body: { name: 'j', scopes: ['tools:read'] } },
      response: { headers: { 'content-type': expect.stringMatching(/json/) }, body: { name: 'j', key: expect.stringMatching(/^svc_test_.{3}…\[redacted\]$/) } },
    })
  })

  it('filters by path, method, status, host, key prefix and sequence', async () => {
    await sb.api('GET', '/v1/me', { key: KEYS.agent })
    await sb.api('GET', '/v1/credits')
    await sb.base('GET', '/api/v1/keys', { key: KEYS.owner })
    const all = await sb.control.journal()
    expect(all.map((e) => e.path)).toEqual(['/v1/me', '/v1/credits', '/api/v1/keys'])
    expect((await sb.control.journal({ host: 'api' })).map((e) => e.path)).toEqual(['/v1/me', '/v1/credits'])
    expect((await sb.control.journal({ status: 401 })).map((e) => e.path)).toEqual(['/v1/credits'])
    expect((await sb.control.journal({ key_prefix: 'svc_test_age' })).map((e) => e.path)).toEqual(['/v1/me'])
    expect((await sb.control.journal({ method: 'get', path: '/api/v1' })).map((e) => e.path)).toEqual(['/api/v1/keys'])
    expect((await sb.control.journal({ since: all[0].seq })).map((e) => e.path)).toEqual(['/v1/credits', '/api/v1/keys'])
    expect((await sb.control.journal({ limit: 1 })).map((e) => e.path)).toEqual(['/api/v1/keys'])
  })

  it('records each exchange\'s own headers and query when consecutive requests differ', async () => {
    const variants: Array<Record<string, string>> = [{ 'x-trace': 'a' }, { 'x-trace': 'a' }, { 'x-trace': 'b' }, {}, { 'x-trace': 'a', 'x-other': '1' }]
    for (const [i, headers] of variants.entries()) await sb.api('GET', i % 2 ? `/v1/me?n=${i}` : '/v1/me', { key: KEYS.agent, headers })
    const entries = await sb.control.journal()
    expect(entries.map((e) => [e.request.headers['x-trace'], e.request.headers['x-other'], e.query])).toEqual([
      ['a', undefined, {}], ['a', undefined, { n: '1' }], ['b', undefined, {}], [undefined, undefined, { n: '3' }], ['a', '1', {}],
    ])
  })

  it('keeps only the newest exchanges up to its limit, skips the control plane, and can be cleared', async () => {
    for (let i = 0; i < 8; i++) await sb.api('GET', `/v1/me?i=${i}`, { key: KEYS.owner })
    const kept = await sb.control.journal()
    expect(kept.map((e) => e.query.i)).toEqual(['3', '4', '5', '6', '7'])
    expect(kept.every((e) => !e.path.startsWith('/_sandbox'))).toBe(true)
    await sb.control.clearJournal()
    expect(await sb.control.journal()).toEqual([])
  })

  it('keeps a big body cut at the cap with its full size, and whole bodies in their usual shape', async () => {
    const body = JSON.stringify({ script_name: 'list_campaigns', args: [], padding: 'x'.repeat(100_000) })
    await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body })
    const [entry] = await sb.control.journal({ path: '/api/v1/tools/run' })
    expect(entry.request.truncated).toEqual({ bytes: body.length, kept_bytes: BODY_CAP })
    expect(entry.request.body).toBe(body.slice(0, BODY_CAP))
    expect(Object.keys(entry.response)).toEqual(['headers', 'body'])
    expect(entry.response.body).toMatchObject({ code: expect.any(String) })
  })

  it.each([
    ['without a credential', {}],
    ['with a key that does not exist', { key: `svc_test_${'n'.repeat(32)}` }],
  ])('keeps only the first kilobyte of a body sent %s', async (_how, credential) => {
    const body = JSON.stringify({ padding: 'y'.repeat(50_000) })
    expect((await sb.base('POST', '/api/v1/tools/run', { ...credential, body })).status).toBe(401)
    const [entry] = await sb.control.journal()
    expect(entry.request.truncated).toEqual({ bytes: body.length, kept_bytes: ANONYMOUS_BODY_CAP })
    expect(entry.request.body).toBe(body.slice(0, ANONYMOUS_BODY_CAP))
  })

  it('shows a body nested deeper than it parses as its text, and keeps answering reads', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`
    const shallow = `${'['.repeat(50)}1${']'.repeat(50)}`
    for (const body of [deep, shallow]) await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body })
    const page = await sb.base('GET', '/_sandbox/journal')
    expect(page.status).toBe(200)
    expect(page.body.entries.map((e: { request: { body: unknown } }) => typeof e.request.body)).toEqual(['string', 'object'])
    expect(page.body.entries[0].request.body).toBe(deep)
  })
})

describe('request journal byte budget', () => {
  it('evicts the oldest exchanges once the kept text passes journalMaxBytes, whatever the entry limit', async () => {
    const small = await startSandbox({ journalMaxBytes: 200_000 })
    try {
      const body = JSON.stringify({ padding: 'z'.repeat(60_000) })
      for (let i = 0; i < 10; i++) await small.api('POST', `/v1/campaigns?i=${i}`, { key: KEYS.owner, body })
      const kept = await small.control.journal()
      // Three 60 KB bodies fit in 200 000 bytes, four do not.
      expect(kept.map((e) => e.query.i)).toEqual(['7', '8', '9'])
    } finally {
      await small.close()
    }
  })
})

describe('Journal', () => {
  const exchange = (body: string, responseText = '') => exchangeEntry({
    host: 'api', started: performance.now(), sandboxMs: 0, path: '/v1/me', query: {}, status: 200,
    req: { method: 'POST', headers: { authorization: `Bearer ${KEYS.owner}` } }, res: { getHeader: () => undefined },
    requestBody: body, responseBody: responseText, fault: null,
  })

  it('reads back every kept body, repeated, changing or non-ASCII, after thousands of exchanges were evicted', () => {
    const journal = new Journal({ limit: 300 })
    const list = JSON.stringify({ campaigns: Array.from({ length: 40 }, (_, i) => ({ id: `cmp_${i}`, name: 'Été – 🚀' })) })
    const sent: Array<[string, string]> = []
    for (let i = 0; i < 5_000; i++) {
      // Runs of equal bodies (a list answered again unchanged) between bodies that change at every call.
      const request = i % 7 < 3 ? '{"script_name":"list_campaigns"}' : `{"n":${i}}`
      const response = i % 5 < 2 ? list : JSON.stringify({ n: i, padding: 'p'.repeat(i % 3_000) })
      journal.record(exchange(request, response))
      sent.push([request, response])
    }
    const { entries } = journal.query({ limit: 1_000 })
    expect(entries.map((e) => [JSON.stringify(e.request.body), JSON.stringify(e.response.body)])).toEqual(sent.slice(-300))
  })

  it('holds one string for a body repeated by value, not a copy per entry', () => {
    const journal = new Journal({ limit: 1_000 })
    const body = JSON.stringify({ tools: 'x'.repeat(60_000) })
    const gc = vm.runInNewContext('gc') as () => void
    gc()
    const before = process.memoryUsage().heapUsed
    // Each exchange's kept body is its own string of equal value, as when each answer is masked afresh.
    for (let i = 0; i < 300; i++) {
      const entry = exchange('{}', body)
      entry.response_body = Buffer.from(body).toString('utf8')
      journal.record(entry)
    }
    gc()
    // 300 copies would be 18 MB; one shared string is 60 KB.
    expect((process.memoryUsage().heapUsed - before) / 1e6).toBeLessThan(4)
    expect(journal.query({ limit: 1 }).entries[0].response.body).toEqual({ tools: 'x'.repeat(60_000) })
  })

  it('refills its oldest entry at the limit without leaving any of its values in the new one', () => {
    const journal = new Journal({ limit: 3 })
    for (let i = 0; i < 10; i++) {
      journal.record(exchangeEntry({
        host: i % 2 ? 'base' : 'api', started: performance.now(), sandboxMs: i, path: `/v1/p${i}`, query: i % 3 ? { i: String(i) } : {}, status: 200 + i,
        req: { method: 'GET', headers: i % 2 ? { authorization: `Bearer ${KEYS.owner}` } : {} }, res: { getHeader: () => undefined },
        requestBody: '', responseBody: `{"i":${i}}`, fault: i % 4 ? null : 'drop', requestId: i % 2 ? `req_${i}` : null,
      }))
    }
    const kept = journal.query().entries.map((e) => [e.path, e.host, e.status, e.request_id, e.fault, e.key_prefix, e.query, e.response.body])
    expect(kept).toEqual([
      ['/v1/p7', 'base', 207, 'req_7', null, 'svc_test_own', { i: '7' }, { i: 7 }],
      ['/v1/p8', 'api', 208, null, 'drop', null, { i: '8' }, { i: 8 }],
      ['/v1/p9', 'base', 209, 'req_9', null, 'svc_test_own', {}, { i: 9 }],
    ])
  })

  it('holds the bodies of the kept exchanges only: its arena stays a few chunks however many exchanges passed', () => {
    const journal = new Journal({ limit: 100 })
    for (let i = 0; i < 20_000; i++) journal.record(exchange(`{"n":${i}}`, JSON.stringify({ n: i, padding: 'q'.repeat(6_000) })))
    // 100 answers of ≈ 6 KB: one chunk in use, the one being filled and two spares at most.
    expect(journal.arenaBytes).toBeLessThanOrEqual(4 * 2 ** 20)
    journal.clear()
    expect(journal.arenaBytes).toBe(0)
    journal.record(exchange('{"after":"clear"}', '{"ok":true}'))
    expect(journal.query().entries.map((e) => [e.request.body, e.response.body])).toEqual([[{ after: 'clear' }, { ok: true }]])
  })

  it('keeps the newest entry even when it alone is over the byte budget, and counts nothing once cleared', () => {
    const journal = new Journal({ maxBytes: 2_000 })
    journal.record(exchange('a'.repeat(300)))
    journal.record(exchange('b'.repeat(300)))
    expect(journal.usage.entries).toBe(2)
    journal.record(exchange('c'.repeat(5_000)))
    expect(journal.query().entries.map((e) => String(e.request.body)[0])).toEqual(['c'])
    expect(journal.usage.bytes).toBeGreaterThan(5_000)
    journal.clear()
    expect(journal.usage).toEqual({ entries: 0, bytes: 0 })
  })
})

