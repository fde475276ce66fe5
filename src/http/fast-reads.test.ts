import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import { setRateLimits } from '../domain/rate-limits.js'
import { KEYS, call } from '../test-support/http.js'
import { FELL_BACK, standIn } from '../test-support/twins.js'
import { withFastReads } from './fast-reads.js'

// The fast path answers; anything it hands on reaches the stand-in for express instead.

let sb: Sandbox
let fast: Listening
let probe: Listening
let express: Listening
beforeAll(async () => {
  sb = await buildSandbox()
  fast = await listen(sb.apiListener, '127.0.0.1', 0)
  probe = await listen(withFastReads(sb.ctx, standIn), '127.0.0.1', 0)
  express = await listen(sb.apiApp, '127.0.0.1', 0)
})
afterAll(async () => {
  await Promise.all([fast.close(), probe.close(), express.close()])
  await sb.close()
})
beforeEach(async () => {
  await sb.ctx.worlds.reset('default')
  sb.ctx.clock.restore({ offset_ms: 0, frozen_at: Date.parse('2030-02-03T04:05:06.000Z') })
  sb.ctx.journal.clear()
})

// What the journal keeps of an exchange, minus what differs between any two exchanges.
const lastEntry = () => {
  // Each exchange has its own Request-Id; both paths record one (src/http/request-id.test.ts).
  const { seq: _seq, at: _at, duration_ms: _ms, request_id: _id, request, ...rest } = sb.ctx.journal.query({ limit: 1 }).entries[0]
  const { host: _host, ...headers } = request.headers
  return { ...rest, request: { ...request, headers } }
}

describe('fast read path for GET /v1/campaigns', () => {
  it.each(['/v1/campaigns', '/v1/campaigns?status=enabled&limit=2&page=2', '/v1/campaigns?platform=Google&name=a'])(
    'answers %s with the same status, headers, body and journal entry as express', async (path) => {
      const viaExpress = await call(express.url, 'GET', path, { key: KEYS.agent })
      const expressEntry = lastEntry()
      const viaFast = await call(fast.url, 'GET', path, { key: KEYS.agent })
      expect(viaFast.status).toBe(200)
      expect(viaFast.text).toBe(viaExpress.text)
      for (const name of ['content-type', 'content-length', 'etag', 'x-powered-by']) expect(viaFast.headers.get(name)).toBe(viaExpress.headers.get(name))
      expect(lastEntry()).toEqual(expressEntry)
    })

  it('keeps answering like express while the clock moves, a campaign changes and the day rolls over', async () => {
    const clock = sb.ctx.clock
    const start = clock.now()
    for (const [advance, change] of [[0, false], [1, false], [90_000, false], [0, true], [86_400_000, false]] as const) {
      clock.restore({ offset_ms: 0, frozen_at: clock.now() + advance })
      if (change) {
        const [first] = sb.ctx.deps.store.campaigns.filter((c) => c.workspace_id === 'ws_acme')
        sb.ctx.deps.store.campaigns.update(first.id, { campaign_name: 'Renamed while polling' })
      }
      const viaFast = await call(fast.url, 'GET', '/v1/campaigns', { key: KEYS.agent })
      const viaExpress = await call(express.url, 'GET', '/v1/campaigns', { key: KEYS.agent })
      expect(viaFast.text).toBe(viaExpress.text)
    }
    expect(clock.now()).toBe(start + 86_400_000 + 90_001)
    expect((await call(fast.url, 'GET', '/v1/campaigns', { key: KEYS.agent })).text).toContain('Renamed while polling')
  })

  it('serves a plain list itself, marks the key used and takes a rate-limit token', async () => {
    setRateLimits(sb.ctx.deps, 'ws_acme', { per_key: { capacity: 2, refill_per_second: 0.001 }, per_workspace: null })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await call(probe.url, 'GET', '/v1/campaigns', { key: KEYS.agent })).status)
    // The third is refused (429), which the fast path leaves to express.
    expect(statuses).toEqual([200, 200, FELL_BACK])
    const key = sb.ctx.deps.store.keys.filter((k) => k.prefix === KEYS.agent.slice(0, 12))[0]
    expect(key.last_used_at).toBe('2030-02-03T04:05:06.000Z')
  })

  it.each<[string, string, string, Record<string, string>?]>([
    ['another method', 'POST', '/v1/campaigns'],
    ['HEAD', 'HEAD', '/v1/campaigns'],
    ['another path', 'GET', '/v1/campaigns/123'],
    ['a trailing slash', 'GET', '/v1/campaigns/'],
    ['an unknown query parameter', 'GET', '/v1/campaigns?sort=name'],
    ['a repeated query parameter', 'GET', '/v1/campaigns?status=enabled&status=paused'],
    ['an invalid query value', 'GET', '/v1/campaigns?limit=500'],
    ['an unsupported platform', 'GET', '/v1/campaigns?platform=meta'],
    ['a conditional request', 'GET', '/v1/campaigns', { 'if-none-match': '*' }],
    ['two different keys', 'GET', '/v1/campaigns', { 'x-service-key': KEYS.owner }],
  ])('hands %s to express', async (_what, method, path, headers) => {
    expect((await call(probe.url, method, path, { key: KEYS.agent, headers })).status).toBe(FELL_BACK)
  })

  it.each([
    ['no key', undefined],
    ['an unknown key', 'svc_test_unknown0000000000000000000000000'],
    ['a key that cannot pick a workspace', KEYS.alexUnpinned],
  ])('hands a request with %s to express and changes nothing', async (_what, key) => {
    const before = JSON.stringify(sb.ctx.deps.store.snapshot())
    expect((await call(probe.url, 'GET', '/v1/campaigns', { key })).status).toBe(FELL_BACK)
    expect(JSON.stringify(sb.ctx.deps.store.snapshot())).toBe(before)
  })

  it('hands every request to express while a fault rule is active, so the fault fires', async () => {
    sb.ctx.clock.restore({ offset_ms: 0, frozen_at: null })
    const control = { 'content-type': 'application/json', 'x-sandbox-admin': sb.adminToken! }
    const base = await listen(sb.baseApp, '127.0.0.1', 0)
    try {
      const added = await fetch(`${base.url}/_sandbox/faults`, {
        method: 'POST', headers: control, body: JSON.stringify({ match: { host: 'api', path: '/v1/campaigns' }, status: 503, times: 1 }),
      })
      expect(added.status).toBe(201)
      expect((await call(probe.url, 'GET', '/v1/campaigns', { key: KEYS.agent })).status).toBe(FELL_BACK)
      const faulted = await call(fast.url, 'GET', '/v1/campaigns', { key: KEYS.agent })
      expect(faulted).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } })
      expect(sb.ctx.journal.query({ limit: 1 }).entries[0].fault).toMatch(/#1$/)
      // The rule is spent: the fast path answers again.
      expect((await call(probe.url, 'GET', '/v1/campaigns', { key: KEYS.agent })).status).toBe(200)
    } finally {
      await base.close()
    }
  })
})

describe('fast read path and the key it marks used', () => {
  const usedAt = (key: string) => sb.ctx.deps.store.keys.filter((k) => k.prefix === key.slice(0, 12)).map((k) => k.last_used_at)
  const at = (ms: number) => sb.ctx.clock.restore({ offset_ms: 0, frozen_at: Date.parse('2030-02-03T04:05:06.000Z') + ms })

  it.each<[string, Record<string, string>]>([
    ['X-Service-Key', { 'x-service-key': KEYS.reporting }],
    ['Authorization: Bearer', { authorization: `Bearer ${KEYS.reporting}` }],
  ])('answers a key in %s like express and marks it used at the sandbox time', async (_what, headers) => {
    at(60_000)
    const viaExpress = await call(express.url, 'GET', '/v1/campaigns', { headers })
    const expressUsed = usedAt(KEYS.reporting)
    for (const k of sb.ctx.deps.store.keys.filter((k) => k.prefix === KEYS.reporting.slice(0, 12))) sb.ctx.deps.store.keys.touch(k.id, { last_used_at: null })
    const viaFast = await call(fast.url, 'GET', '/v1/campaigns', { headers })
    expect(viaFast.status).toBe(200)
    expect(viaFast.text).toBe(viaExpress.text)
    expect(expressUsed).toEqual(['2030-02-03T04:06:06.000Z'])
    expect(usedAt(KEYS.reporting)).toEqual(expressUsed)
  })

  it.each<[string, string, Record<string, string>, number]>([
    ['an X-API-Key (not a resource credential)', '/v1/campaigns', { 'x-api-key': KEYS.reporting }, 401],
    ['a refused query', '/v1/campaigns?limit=500', { 'x-service-key': KEYS.reporting }, 400],
    ['an empty rate-limit bucket', '/v1/campaigns', { 'x-service-key': KEYS.reporting }, 429],
  ])('leaves the key unused on %s, as express does', async (_what, path, headers, status) => {
    setRateLimits(sb.ctx.deps, 'ws_acme', { per_key: { capacity: status === 429 ? 0 : 10, refill_per_second: 0.001 }, per_workspace: null })
    at(60_000)
    // One client request id for both, so the error bodies (`request_id`) match byte for byte.
    const named = { ...headers, 'request-id': 'twin-request' }
    const viaFast = await call(fast.url, 'GET', path, { headers: named })
    const viaExpress = await call(express.url, 'GET', path, { headers: named })
    expect(viaFast.status).toBe(status)
    expect(viaFast.text).toBe(viaExpress.text)
    expect(usedAt(KEYS.reporting)).toEqual([null])
  })
})
