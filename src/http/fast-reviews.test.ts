import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { KEYS } from '../test-support/http.js'
import type { RawRequest, Twin } from '../test-support/twins.js'
import { COMPARED_HEADERS, FELL_BACK, closeTwins, journalOf, sendRaw, standIn, twin } from '../test-support/twins.js'
import { withFastReviews } from './fast-reviews.js'

const TOKEN = 'admin-secret-token'
let fast: Twin
let plain: Twin
let fastLocked: Twin
let plainLocked: Twin
let probeTwin: Twin
let probe: Listening
/** Pending held writes, the same ids in every twin (sequential ids). */
let held: string[] = []

/** Queues held writes (the default policy holds enabling and removing): enable each live campaign, then remove the first; their audit ids. */
async function holdWrites(t: Twin): Promise<string[]> {
  const live = t.sb.ctx.deps.store.campaigns.filter((c) => c.workspace_id === 'ws_acme' && c.status !== 'REMOVED')
    // A PAUSED campaign first, so the first approval runs its write ("executed"); enabling an ENABLED one fails when run.
    .sort((a, b) => Number(b.status === 'PAUSED') - Number(a.status === 'PAUSED')).map((c) => c.id)
  const ids: string[] = []
  for (const [script, campaign] of [...live.map((id) => ['enable_campaign', id]), ['remove_campaign', live[0]]]) {
    const body = JSON.stringify({ script_name: script, args: ['--campaign-id', campaign], platform: 'google' })
    const answer = await sendRaw(t.server.url, { path: '/api/v1/tools/run', key: KEYS.agent, body })
    expect(answer.status).toBe(202)
    ids.push(JSON.parse(answer.text).audit_id as string)
  }
  return ids
}

beforeAll(async () => {
  fast = await twin((sb) => sb.baseListener, { adminToken: TOKEN })
  plain = await twin((sb) => sb.baseApp, { adminToken: TOKEN })
  fastLocked = await twin((sb) => sb.baseListener, { adminToken: TOKEN })
  plainLocked = await twin((sb) => sb.baseApp, { adminToken: TOKEN })
  probeTwin = await twin((sb) => sb.baseListener, { adminToken: TOKEN })
  probe = await listen(withFastReviews(probeTwin.sb.ctx, standIn), '127.0.0.1', 0)
  const all = await Promise.all([fast, plain, fastLocked, plainLocked, probeTwin].map((t) => holdWrites(t)))
  for (const ids of all) expect(ids).toEqual(all[0])
  held = all[0]
  expect(held.length).toBeGreaterThanOrEqual(8)
})
afterAll(async () => {
  await probe.close()
  await closeTwins([fast, plain, fastLocked, plainLocked, probeTwin])
})

// A person's review: the admin token unless `extra.headers` says otherwise.
const review = (n: number, action: 'approve' | 'reject', body: unknown, extra: Partial<RawRequest> = {}) => (): RawRequest => ({
  path: `/_sandbox/reviews/${held[n] ?? n}/${action}`, body: typeof body === 'string' ? body : JSON.stringify(body), ...extra,
  headers: { 'x-sandbox-admin': TOKEN, ...extra.headers },
})
const reviewer = { reviewer: 'Rita Reviewer' }

// [what, request, answered by the fast path itself?]; in order: later ones see what earlier ones did.
const CASES: Array<[string, () => RawRequest, boolean]> = [
  ['approving a pending write (it runs)', review(0, 'approve', reviewer), true],
  ['approving it again (409)', review(0, 'approve', reviewer), true],
  ['rejecting a pending write with a comment', review(1, 'reject', { ...reviewer, comment: 'not this week' }), true],
  ['approving a rejected write (409)', review(1, 'approve', reviewer), true],
  ['an unknown audit id (404)', () => ({ path: '/_sandbox/reviews/aud_missing/approve', body: JSON.stringify(reviewer), headers: { 'x-sandbox-admin': TOKEN } }), true],
  ['a body without reviewer (400)', review(2, 'approve', {}), true],
  ['a blank reviewer (400)', review(2, 'approve', { reviewer: '   ' }), true],
  ['an unknown field (400)', review(2, 'approve', { ...reviewer, extra: 1 }), true],
  ['a charset and upper-case content type', review(2, 'approve', reviewer, { headers: { 'content-type': 'Application/JSON; charset=UTF-8' } }), true],
  ['malformed JSON', review(3, 'approve', '{"reviewer": '), false],
  ['a JSON array', review(3, 'approve', '[]'), false],
  ['an empty body', review(3, 'approve', ''), false],
  ['another content type', review(3, 'approve', reviewer, { headers: { 'content-type': 'text/plain' } }), false],
  ['a chunked body', review(3, 'approve', reviewer, { chunked: true }), false],
  ['a trailing slash', () => ({ ...review(3, 'approve', reviewer)(), path: `/_sandbox/reviews/${held[3]}/approve/` }), false],
  ['an upper-case path', () => ({ ...review(4, 'approve', reviewer)(), path: `/_sandbox/Reviews/${held[4]}/approve` }), false],
  ['a percent-encoded id', () => ({ ...review(5, 'approve', reviewer)(), path: `/_sandbox/reviews/${encodeURIComponent(held[5]).replace('_', '%5F')}/approve` }), false],
  ['a query string', () => ({ ...review(6, 'reject', reviewer)(), path: `/_sandbox/reviews/${held[6]}/reject?why=1` }), false],
  ['a GET on the approve path (405)', () => ({ method: 'GET', path: `/_sandbox/reviews/${held[7]}/approve`, headers: { 'x-sandbox-admin': TOKEN } }), false],
]

describe('fast control-plane review path for POST /_sandbox/reviews/{id}/approve|reject', () => {
  it.each(CASES)('answers %s exactly as express does', async (_what, make) => {
    const viaFast = await sendRaw(fast.server.url, make())
    const viaExpress = await sendRaw(plain.server.url, make())
    expect(viaFast.status).toBe(viaExpress.status)
    expect(viaFast.text).toBe(viaExpress.text)
    for (const name of COMPARED_HEADERS) expect(viaFast.headers[name]).toEqual(viaExpress.headers[name])
  })

  it('leaves the same state and journal as express, and journals no control-plane exchange', () => {
    expect(fast.sb.ctx.deps.store.snapshot()).toEqual(plain.sb.ctx.deps.store.snapshot())
    expect(journalOf(fast.sb)).toEqual(journalOf(plain.sb))
    expect(fast.sb.ctx.journal.query({ path: '/_sandbox' }).entries).toEqual([])
    // The approval ran the write once; the rejection ran nothing.
    const statuses = [0, 1].map((n) => fast.sb.ctx.deps.store.audit.get(held[n])?.status)
    expect(statuses).toEqual(['executed', 'rejected'])
  })

  it.each([
    ['the right admin token', { 'x-sandbox-admin': TOKEN }, 200],
    ['no admin token (401)', {}, 401],
    ['a wrong admin token (401)', { 'x-sandbox-admin': 'not-the-token' }, 401],
    ['a wrong token of the right length (401)', { 'x-sandbox-admin': 'x'.repeat(TOKEN.length) }, 401],
  ] as const)('answers an approval with %s as express does when a token is set', async (_what, headers, status) => {
    const sent = { ...review(5, 'approve', reviewer)(), headers }
    const viaFast = await sendRaw(fastLocked.server.url, sent)
    const viaExpress = await sendRaw(plainLocked.server.url, sent)
    expect(viaFast.status).toBe(status)
    expect(viaFast.status).toBe(viaExpress.status)
    expect(viaFast.text).toBe(viaExpress.text)
    for (const name of COMPARED_HEADERS) expect(viaFast.headers[name]).toEqual(viaExpress.headers[name])
    expect(fastLocked.sb.ctx.deps.store.snapshot()).toEqual(plainLocked.sb.ctx.deps.store.snapshot())
  })

  it.each(CASES.filter(([, , own]) => !own))('hands %s to express with its body intact', async (_what, make) => {
    const sent = make()
    const answer = await sendRaw(probe.url, sent)
    expect(answer.status).toBe(FELL_BACK)
    expect(answer.text).toBe(sent.body ?? '')
  })

  it('answers a plain approval and its 409 itself', async () => {
    expect((await sendRaw(probe.url, review(0, 'approve', reviewer)())).status).toBe(200)
    expect((await sendRaw(probe.url, review(0, 'approve', reviewer)())).status).toBe(409)
    expect(probeTwin.sb.ctx.deps.store.audit.get(held[0])?.status).toBe('executed')
  })

  it('leaves an approval with a missing or wrong admin token to express, and answers the right one itself', async () => {
    const locked = await listen(withFastReviews(fastLocked.sb.ctx, standIn), '127.0.0.1', 0)
    try {
      const statuses = []
      for (const headers of [{}, { 'x-sandbox-admin': 'wrong' }, { 'x-sandbox-admin': TOKEN }] as Array<Record<string, string>>) statuses.push((await sendRaw(locked.url, { ...review(6, 'reject', reviewer)(), headers })).status)
      expect(statuses).toEqual([FELL_BACK, FELL_BACK, 200])
    } finally {
      await locked.close()
    }
  })
})
