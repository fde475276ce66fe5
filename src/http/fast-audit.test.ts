import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { KEYS } from '../test-support/http.js'
import type { RawRequest, Twin } from '../test-support/twins.js'
import { COMPARED_HEADERS, FELL_BACK, closeTwins, journalOf, sendRaw, standIn, twin } from '../test-support/twins.js'
import { withFastAudit } from './fast-audit.js'

let fast: Twin
let plain: Twin
let fastAgency: Twin
let plainAgency: Twin
let probe: Listening
/** Audit ids, the same in both twins of a pair (sequential ids): an agent's held write, the owner's, Alex's in Client A. */
const ids = { agent: '', owner: '', clientA: '' }

/** Queues a held enable of the `n`th live campaign of `workspace` with `key`; its audit id. */
async function holdEnable(t: Twin, options: { key: string; workspace: string; n: number }): Promise<string> {
  const campaign = t.sb.ctx.deps.store.campaigns.filter((c) => c.workspace_id === options.workspace && c.status !== 'REMOVED')[options.n].id
  const body = JSON.stringify({ script_name: 'enable_campaign', args: ['--campaign-id', campaign], platform: 'google' })
  const answer = await sendRaw(t.server.url, { path: '/api/v1/tools/run', key: options.key, body })
  expect(answer.status).toBe(202)
  return JSON.parse(answer.text).audit_id as string
}

beforeAll(async () => {
  fast = await twin((sb) => sb.baseListener)
  plain = await twin((sb) => sb.baseApp)
  fastAgency = await twin((sb) => sb.baseListener, { world: 'multi-workspace' })
  plainAgency = await twin((sb) => sb.baseApp, { world: 'multi-workspace' })
  probe = await listen(withFastAudit(fast.sb.ctx, standIn), '127.0.0.1', 0)
  for (const [name, pair, options] of [
    ['agent', [fast, plain], { key: KEYS.agent, workspace: 'ws_acme', n: 0 }],
    ['owner', [fast, plain], { key: KEYS.owner, workspace: 'ws_acme', n: 1 }],
    ['clientA', [fastAgency, plainAgency], { key: KEYS.alexClientA, workspace: 'ws_client_a', n: 0 }],
  ] as const) {
    const [a, b] = [await holdEnable(pair[0], options), await holdEnable(pair[1], options)]
    expect(a).toBe(b)
    ids[name] = a
  }
})
afterAll(async () => {
  await probe.close()
  await closeTwins([fast, plain, fastAgency, plainAgency])
})

const read = (entry: keyof typeof ids, key: string | undefined, extra: Partial<RawRequest> = {}) => (): RawRequest => ({ path: `/api/v1/audit/${ids[entry]}`, key, ...extra })

// [what, request, answered by the fast path itself?]
const CASES: Array<[string, () => RawRequest, boolean]> = [
  ['a key reading its own entry', read('agent', KEYS.agent), true],
  ['a workspace:read key reading another key\'s entry', read('agent', KEYS.reviewer), true],
  ['the owner reading the agent\'s entry', read('agent', KEYS.owner), true],
  ['a key in X-Service-Key', read('agent', undefined, { headers: { 'x-service-key': KEYS.agent } }), true],
  ['a key without workspace:read reading another key\'s entry (404)', read('agent', KEYS.reporting), false],
  ['the agent reading the owner\'s entry (404)', read('owner', KEYS.agent), false],
  ['a missing entry (404)', () => ({ path: '/api/v1/audit/aud_missing', key: KEYS.owner }), false],
  ['no key (401)', read('agent', undefined), false],
  ['an unknown key (401)', read('agent', 'svc_test_unknown0000000000000000000000000'), false],
  ['a key sent without the Bearer scheme (401)', read('agent', undefined, { headers: { authorization: KEYS.agent } }), false],
  ['a query string', () => ({ ...read('agent', KEYS.agent)(), path: `/api/v1/audit/${ids.agent}?fields=all` }), false],
  ['a trailing slash', () => ({ ...read('agent', KEYS.agent)(), path: `/api/v1/audit/${ids.agent}/` }), false],
  ['an upper-case path', () => ({ ...read('agent', KEYS.agent)(), path: `/API/v1/audit/${ids.agent}` }), false],
  ['a HEAD request', read('agent', KEYS.agent, { method: 'HEAD' }), false],
  ['a GET with a body', read('agent', KEYS.agent, { method: 'GET', body: '{}' }), false],
  ['a conditional GET', read('agent', KEYS.agent, { headers: { 'if-none-match': '"x"' } }), false],
]

async function compare(pair: [Twin, Twin], sent: RawRequest): Promise<number> {
  const viaFast = await sendRaw(pair[0].server.url, sent)
  const viaExpress = await sendRaw(pair[1].server.url, sent)
  expect(viaFast.status).toBe(viaExpress.status)
  expect(viaFast.text).toBe(viaExpress.text)
  for (const name of COMPARED_HEADERS) expect(viaFast.headers[name]).toEqual(viaExpress.headers[name])
  return viaFast.status
}

describe('fast audit read path for GET /api/v1/audit/{id}', () => {
  it.each(CASES)('answers %s exactly as express does', async (_what, make) => {
    await compare([fast, plain], make())
  })

  it.each([
    ['a key of the entry\'s workspace', KEYS.alexClientA, 200],
    ['the same user\'s key pinned to another workspace (404)', KEYS.alexClientB, 404],
    ['an unpinned key of a user with three workspaces (403)', KEYS.alexUnpinned, 403],
    ['a member\'s key with workspace:read', KEYS.caseyClientA, 200],
  ] as const)('answers %s as express does', async (_what, key, status) => {
    expect(await compare([fastAgency, plainAgency], read('clientA', key)())).toBe(status)
  })

  it('answers a pending entry read after its review time ran out as express does (expired, and saved so)', async () => {
    for (const t of [fast, plain]) t.sb.ctx.clock.advance(73 * 3_600_000)
    expect(await compare([fast, plain], read('agent', KEYS.agent)())).toBe(200)
    expect(fast.sb.ctx.deps.store.audit.get(ids.agent)?.status).toBe('expired')
  })

  it('leaves the same journal and state as express after all of them (key use, expiry)', () => {
    for (const [a, b] of [[fast, plain], [fastAgency, plainAgency]]) {
      expect(journalOf(a.sb)).toEqual(journalOf(b.sb))
      expect(a.sb.ctx.deps.store.snapshot()).toEqual(b.sb.ctx.deps.store.snapshot())
    }
    // The reads marked their keys used, as express does (a refused one does not).
    expect(fast.sb.ctx.deps.store.keys.all().filter((k) => k.last_used_at).length).toBeGreaterThan(0)
  })

  it.each(CASES.filter(([, , own]) => !own))('hands %s to express', async (_what, make) => {
    expect((await sendRaw(probe.url, make())).status).toBe(FELL_BACK)
  })

  it.each(CASES.filter(([, , own]) => own))('answers %s itself', async (_what, make) => {
    expect((await sendRaw(probe.url, make())).status).toBe(200)
  })
})
