import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request, type RequestListener } from 'node:http'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import { sequentialIds } from '../runtime/ids.js'
import { KEYS } from '../test-support/http.js'
import { withFastRuns } from './fast-runs.js'
import { defaultPolicy } from '../domain/policy.js'
import { setCredits } from '../domain/billing.js'
import { setRateLimits } from '../domain/rate-limits.js'

// The fast path answers; anything it hands on reaches this stand-in for express instead.
const FELL_BACK = 599
const standIn: RequestListener = (req, res) => {
  // Read what express would read, so a body pushed back is still there.
  let text = ''
  req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8'))).on('end', () => {
    res.statusCode = FELL_BACK
    res.end(text)
  })
}

/** Two identical sandboxes: one behind the fast path, one plain express; the same calls must give the same answers and state. */
let fast: { sb: Sandbox; server: Listening }
let plain: { sb: Sandbox; server: Listening }
let probe: Listening
async function twin(listener: (sb: Sandbox) => RequestListener) {
  // A fixed wall clock: the world is seeded at the same instant in both.
  const sb = await buildSandbox({ ids: sequentialIds(), wall: () => Date.parse('2030-02-03T04:05:06.000Z') })
  return { sb, server: await listen(listener(sb), '127.0.0.1', 0) }
}
beforeAll(async () => {
  fast = await twin((sb) => sb.baseListener)
  plain = await twin((sb) => sb.baseApp)
  probe = await listen(withFastRuns(fast.sb.ctx, standIn), '127.0.0.1', 0)
})
afterAll(async () => {
  await Promise.all([fast.server.close(), plain.server.close(), probe.close()])
  await Promise.all([fast.sb.close(), plain.sb.close()])
})

interface Sent { path?: string; key?: string; body: string | Buffer; headers?: Record<string, string>; chunked?: boolean }

/** One raw HTTP/1.1 exchange, so content type, length and transfer encoding are exactly as given. */
function send(url: string, sent: Sent): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  const body = Buffer.from(sent.body)
  // One client request id for both twins, so error bodies (`request_id`) match byte for byte.
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'request-id': 'twin-request', ...sent.headers }
  if (sent.key) headers.authorization = `Bearer ${sent.key}`
  if (!sent.chunked) headers['content-length'] = body.length
  return new Promise((resolve, reject) => {
    const req = request(`${url}${sent.path ?? '/api/v1/tools/run'}`, { method: 'POST', headers }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8'))).on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }))
    })
    req.on('error', reject)
    // A write before `end` makes node send the body chunked when no length is set.
    if (sent.chunked) req.write(body)
    req.end(sent.chunked ? undefined : body)
  })
}

const run = (script: string, args: string[] = [], extra: Record<string, unknown> = {}) => JSON.stringify({ script_name: script, args, platform: 'google', ...extra })
const journalOf = (sb: Sandbox) => sb.ctx.journal.query({ limit: 1000 }).entries.map(({ at: _at, duration_ms: _ms, request_id: _id, request, ...rest }) => {
  const { host: _host, ...headers } = request.headers
  return { ...rest, request: { ...request, headers } }
})

// [what, request, answered by the fast path itself?]
const CASES: Array<[string, Sent, boolean]> = [
  ['a read', { key: KEYS.owner, body: run('list_campaigns') }, true],
  ['a read with a charset and unknown fields', { key: KEYS.owner, body: run('list_campaigns', ['--status', 'ENABLED'], { trace: 1 }), headers: { 'content-type': 'Application/JSON; charset=UTF-8' } }, true],
  ['a held write', { key: KEYS.agent, body: run('update_campaign_budget', ['--campaign-id', '0000000000', '--daily-budget', '5000']) }, true],
  ['a dry run', { key: KEYS.owner, body: run('list_campaigns', [], { dry_run: true }) }, true],
  ['an unknown script', { key: KEYS.owner, body: run('no_such_script') }, true],
  ['an unknown flag', { key: KEYS.owner, body: run('list_campaigns', ['--colour', 'red']) }, true],
  ['a body without script_name', { key: KEYS.owner, body: '{}' }, true],
  ['no key', { body: run('list_campaigns') }, true],
  ['a key without the scope', { key: KEYS.reporting, body: run('pause_campaign', ['--campaign-id', '1']) }, true],
  ['malformed JSON', { key: KEYS.owner, body: '{"script_name": "list_campaigns",' }, false],
  ['a JSON array', { key: KEYS.owner, body: '[]' }, false],
  ['a JSON string', { key: KEYS.owner, body: '"list_campaigns"' }, false],
  ['an empty body', { key: KEYS.owner, body: '' }, false],
  ['a byte-order mark', { key: KEYS.owner, body: `\uFEFF${run('list_campaigns')}` }, false],
  ['another content type', { key: KEYS.owner, body: run('list_campaigns'), headers: { 'content-type': 'text/plain' } }, false],
  ['a latin-1 charset', { key: KEYS.owner, body: run('list_campaigns'), headers: { 'content-type': 'application/json; charset=latin1' } }, false],
  ['a chunked body', { key: KEYS.owner, body: run('list_campaigns'), chunked: true }, false],
  ['a query string', { key: KEYS.owner, body: run('list_campaigns'), path: '/api/v1/tools/run?x=1' }, false],
  ['a trailing slash', { key: KEYS.owner, body: run('list_campaigns'), path: '/api/v1/tools/run/' }, false],
  ['a body over the 1 MB limit', { key: KEYS.owner, body: JSON.stringify({ script_name: 'list_campaigns', pad: 'x'.repeat(1024 * 1024) }) }, false],
]

describe('fast dispatcher path for POST /api/v1/tools/run', () => {
  it.each(CASES)('answers %s exactly as express does', async (_what, sent) => {
    const viaFast = await send(fast.server.url, sent)
    const viaExpress = await send(plain.server.url, sent)
    expect(viaFast.status).toBe(viaExpress.status)
    expect(viaFast.text).toBe(viaExpress.text)
    for (const name of ['content-type', 'content-length', 'retry-after', 'etag', 'x-powered-by']) expect(viaFast.headers[name]).toEqual(viaExpress.headers[name])
  })

  it('leaves the same journal and the same state behind as express after all of them', () => {
    expect(journalOf(fast.sb)).toEqual(journalOf(plain.sb))
    expect(fast.sb.ctx.deps.store.snapshot()).toEqual(plain.sb.ctx.deps.store.snapshot())
    expect(fast.sb.ctx.journal.lastSeq).toBe(CASES.length)
  })

  it.each(CASES.filter(([, , own]) => !own))('hands %s to express with its body intact', async (_what, sent) => {
    const answer = await send(probe.url, sent)
    expect(answer.status).toBe(FELL_BACK)
    expect(answer.text).toBe(Buffer.from(sent.body).toString('utf8'))
  })

  it.each(CASES.filter(([, , own]) => own).slice(0, 3))('answers %s itself', async (_what, sent) => {
    expect((await send(probe.url, sent)).status).not.toBe(FELL_BACK)
  })
})

/**
 * Outcome by outcome (executed, held, blocked, 402, 409, 429) and credential header by header: the
 * sandbox clock moves before every call, so a key marked used on a refusal shows as a different
 * `last_used_at` in the fast twin than in the express twin.
 */
describe('fast dispatcher path, outcome by outcome with the clock moving', () => {
  let pair: { fast: { sb: Sandbox; server: Listening }; plain: { sb: Sandbox; server: Listening } }
  const both = (change: (sb: Sandbox) => void) => [pair.fast.sb, pair.plain.sb].forEach(change)
  const acme = (sb: Sandbox) => sb.ctx.deps.store.campaigns.filter((c) => c.workspace_id === 'ws_acme')
  const idWith = (status: string) => acme(pair.fast.sb).find((c) => c.status === status)?.id ?? 'missing'
  beforeAll(async () => {
    pair = { fast: await twin((sb) => sb.baseListener), plain: await twin((sb) => sb.baseApp) }
  })
  afterAll(async () => {
    await Promise.all([pair.fast.server.close(), pair.plain.server.close()])
    await Promise.all([pair.fast.sb.close(), pair.plain.sb.close()])
  })

  const header = (name: string, key: string) => ({ [name]: key })
  const pause = (id: () => string) => () => run('pause_campaign', ['--campaign-id', id()])
  // [what, key, header to carry it, body, status expected, change to both worlds first]
  const STEPS: Array<[string, string, string, () => string, number, ((sb: Sandbox) => void)?]> = [
    ['an executed write', KEYS.owner, 'x-service-key', pause(() => idWith('ENABLED')), 200],
    ['an executed read', KEYS.reporting, 'x-api-key', () => run('list_campaigns'), 200],
    ['a held write', KEYS.agent, 'x-api-key', () => run('enable_campaign', ['--campaign-id', idWith('PAUSED')]), 202],
    ['a conflicting write (409)', KEYS.owner, 'authorization', pause(() => idWith('PAUSED')), 409],
    ['a write the policy blocks (403)', KEYS.owner, 'x-service-key', pause(() => idWith('ENABLED')), 403,
      (sb) => sb.ctx.deps.store.workspaces.update('ws_acme', { policy: { ...defaultPolicy(), block_tools: ['pause_campaign'] } })],
    ['a write without credit (402)', KEYS.signup, 'x-api-key', pause(() => idWith('ENABLED')), 402, (sb) => {
      sb.ctx.deps.store.workspaces.update('ws_acme', { policy: defaultPolicy() })
      setCredits(sb.ctx.deps, 'ws_acme', { balance: 0 })
    }],
    ['a read over the rate limit (429)', KEYS.reporting, 'authorization', () => run('list_campaigns'), 429,
      (sb) => setRateLimits(sb.ctx.deps, 'ws_acme', { per_key: { capacity: 0, refill_per_second: 0.001 }, per_workspace: null })],
  ]

  it.each(STEPS)('answers %s like express and marks the key used exactly as express does', async (_what, key, name, body, status, change) => {
    if (change) both(change)
    both((sb) => sb.ctx.clock.restore({ offset_ms: 0, frozen_at: sb.ctx.clock.now() + 60_000 }))
    const sent: Sent = { body: body(), headers: name === 'authorization' ? header(name, `Bearer ${key}`) : header(name, key) }
    const viaFast = await send(pair.fast.server.url, sent)
    const viaExpress = await send(pair.plain.server.url, sent)
    expect(viaExpress.status).toBe(status)
    expect(viaFast.status).toBe(viaExpress.status)
    expect(viaFast.text).toBe(viaExpress.text)
    expect(viaFast.headers['retry-after']).toEqual(viaExpress.headers['retry-after'])
    const usedAt = (sb: Sandbox) => sb.ctx.deps.store.keys.filter((k) => k.prefix === key.slice(0, 12)).map((k) => k.last_used_at)
    expect(usedAt(pair.fast.sb)).toEqual(usedAt(pair.plain.sb))
    expect(pair.fast.sb.ctx.deps.store.snapshot()).toEqual(pair.plain.sb.ctx.deps.store.snapshot())
  })
})
