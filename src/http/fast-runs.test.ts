import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import type { Sandbox } from '../sandbox.js'
import { KEYS } from '../test-support/http.js'
import type { RawRequest, Twin } from '../test-support/twins.js'
import { FELL_BACK, closeTwins, journalOf, sendRaw, standIn, twin } from '../test-support/twins.js'
import { withFastRuns } from './fast-runs.js'
import { defaultPolicy } from '../domain/policy.js'
import { setCredits } from '../domain/billing.js'
import { setRateLimits } from '../domain/rate-limits.js'

/** Two identical sandboxes: one behind the fast path, one plain express; the same calls must give the same answers and state. */
let fast: Twin
let plain: Twin
let probe: Listening
beforeAll(async () => {
  fast = await twin((sb) => sb.baseListener)
  plain = await twin((sb) => sb.baseApp)
  // The fast path answers; anything it hands on reaches the stand-in for express instead.
  probe = await listen(withFastRuns(fast.sb.ctx, standIn), '127.0.0.1', 0)
})
afterAll(async () => {
  await probe.close()
  await closeTwins([fast, plain])
})

type Sent = Omit<RawRequest, 'path' | 'body'> & { path?: string; body: string }

/** One raw HTTP/1.1 POST to the dispatcher (or `path`), exactly as given (`sendRaw`). */
const send = (url: string, sent: Sent) => sendRaw(url, { ...sent, path: sent.path ?? '/api/v1/tools/run' })

const run = (script: string, args: string[] = [], extra: Record<string, unknown> = {}) => JSON.stringify({ script_name: script, args, platform: 'google', ...extra })

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
    expect(answer.text).toBe(sent.body)
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
  let pair: { fast: Twin; plain: Twin }
  const both = (change: (sb: Sandbox) => void) => [pair.fast.sb, pair.plain.sb].forEach(change)
  const acme = (sb: Sandbox) => sb.ctx.deps.store.campaigns.filter((c) => c.workspace_id === 'ws_acme')
  const idWith = (status: string) => acme(pair.fast.sb).find((c) => c.status === status)?.id ?? 'missing'
  beforeAll(async () => {
    pair = { fast: await twin((sb) => sb.baseListener), plain: await twin((sb) => sb.baseApp) }
  })
  afterAll(() => closeTwins([pair.fast, pair.plain]))

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
