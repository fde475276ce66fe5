import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, campaignsByStatus, startSandbox } from '../test-support/http.js'
import { Contract, OPENAPI_PATH } from '../../conformance/contract.js'

/** Issue 19 item 4: `Prefer: example=<name>` answers the contract's named example once, changing nothing. */

type Node = Record<string, any>
const doc = parse(readFileSync(OPENAPI_PATH, 'utf8'), { merge: true }) as Node
const deref = (node: Node): Node => (typeof node?.$ref === 'string' ? deref(node.$ref.slice(2).split('/').reduce((at: Node, k: string) => at?.[k], doc)) : node)

// [method, path, status, name, body, headers] for every JSON example of a public route.
const EXAMPLES = Object.entries(doc.paths as Node)
  .filter(([path]) => path.startsWith('/api/v1/') || path.startsWith('/v1/'))
  .flatMap(([path, item]) => Object.entries(item as Node).flatMap(([method, op]) => Object.entries(op.responses as Node).flatMap(([status, ref]) => {
    const response = deref(ref)
    const headers = Object.fromEntries(Object.entries((response.headers ?? {}) as Node).map(([name, h]) => [name.toLowerCase(), deref(h).example]).filter(([, v]) => v !== undefined))
    return Object.entries((response.content?.['application/json']?.examples ?? {}) as Node)
      .map(([name, example]) => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x1'), Number(status), name, deref(example).value, headers] as const)
  })))

let sb: TestSandbox
let contract: Contract
beforeAll(async () => {
  sb = await startSandbox()
  // Frozen, so metrics that accrue with sandbox time cannot pass for a change the examples made.
  await sb.control.freezeClock()
  contract = await Contract.load()
})
afterAll(() => sb.close())
beforeEach(() => sb.control.clearJournal())

function send(method: string, path: string, prefer: string, key: string | null = KEYS.owner) {
  const origin = path.startsWith('/v1/') ? sb.apiUrl : sb.baseUrl
  const headers: Record<string, string> = { prefer, 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }
  return fetch(`${origin}${path}`, { method, headers, body: method === 'GET' || method === 'DELETE' ? undefined : '{"script_name":"pause_campaign","args":[]}' })
}

// What a sandbox could change: campaigns, credits and the audit log.
const world = async () => [
  (await sb.api('GET', '/v1/campaigns?limit=100', { key: KEYS.owner })).text,
  (await sb.api('GET', '/v1/credits', { key: KEYS.owner })).body.balance,
  (await sb.base('GET', '/api/v1/audit', { key: KEYS.owner })).body.entries.length,
]

describe('Prefer: example=<name>', () => {
  it('covers the examples of every public route (held, 402, 429, the campaign list …)', () => {
    expect(EXAMPLES.length).toBeGreaterThan(100)
    for (const name of ['held', 'insufficient-credits', 'rate-limited', 'campaign-list']) expect(EXAMPLES.map((e) => e[3])).toContain(name)
  })

  it.each(EXAMPLES)('%s %s answers its %i example %s as the contract writes it, contract-valid', async (method, path, status, name, body, headers) => {
    const res = await send(method, path, `example=${name}`)
    const text = await res.text()
    const answer = JSON.parse(text)
    expect(res.status).toBe(status)
    // An error body names its request, as every sandbox error does; the rest is the example verbatim.
    expect(answer).toEqual(status >= 400 ? { ...body, request_id: res.headers.get('request-id') } : body)
    for (const [header, value] of Object.entries(headers)) expect(res.headers.get(header)).toBe(String(value))
    expect(res.headers.get('preference-applied')).toBe(`example=${name}`)
    const exchange = {
      host: path.startsWith('/v1/') ? 'api' as const : 'base' as const, method, url: path, path, duration_ms: 0,
      request: { headers: {}, query: {}, body: null },
      response: { status, headers: Object.fromEntries(res.headers), body: answer, text },
    }
    expect(contract.validate(exchange)).toEqual([])
    const [entry] = await sb.control.journal({ path })
    expect(entry).toMatchObject({ status, fault: `prefer:example=${name}` })
  })

  it('changes nothing however many examples are asked for, and the next request is normal', async () => {
    const { enabled } = await campaignsByStatus(sb)
    const before = await world()
    for (const name of ['campaign-paused', 'held', 'already-paused', 'insufficient-credits']) {
      expect((await send('POST', '/api/v1/tools/run', `example=${name}`)).headers.get('preference-applied')).toBe(`example=${name}`)
      expect((await send('POST', `/v1/campaigns/${enabled}/pause`, `example=${name}`)).headers.get('preference-applied')).toBe(`example=${name}`)
    }
    expect(await world()).toEqual(before)
    expect((await sb.api('GET', '/v1/campaigns', { key: KEYS.owner })).body.campaigns.length).toBeGreaterThan(2)
  })

  it('takes code= as a filter, so the Prism form `code=402, example=…` works here too', async () => {
    const both = await send('POST', '/api/v1/tools/run', 'code=402, example=insufficient-credits')
    expect(both.status).toBe(402)
    expect(both.headers.get('preference-applied')).toBe('code=402, example=insufficient-credits')
    const mismatch = await send('POST', '/api/v1/tools/run', 'code=402, example=held')
    expect(mismatch.status).toBe(400)
    expect(await mismatch.json()).toMatchObject({ code: 'UNKNOWN_EXAMPLE', available: ['insufficient-credits', 'payment-method-required'] })
  })

  it('refuses an example the route does not name with 400 UNKNOWN_EXAMPLE listing the names, running nothing', async () => {
    const before = await world()
    const res = await send('POST', '/api/v1/tools/run', 'example=low-credit')
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ code: 'UNKNOWN_EXAMPLE', example: 'low-credit', method: 'POST', path: '/api/v1/tools/run', request_id: res.headers.get('request-id') })
    expect(body.available).toEqual(expect.arrayContaining(['held', 'rate-limited', 'campaign-paused']))
    expect((await (await send('GET', '/v1/me', 'example=me')).json())).toMatchObject({ code: 'UNKNOWN_EXAMPLE', available: expect.arrayContaining(['rate-limited']) })
    expect(await world()).toEqual(before)
  })

  it('gives an anonymous caller the route\'s 401, and reports an example on an undocumented path as ignored', async () => {
    const anonymous = await send('GET', '/v1/campaigns', 'example=campaign-list', null)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('preference-applied')).toBeNull()
    const unknown = await send('GET', '/v1/nothing', 'example=campaign-list')
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('preference-ignored')).toMatch(/example=campaign-list \(the contract documents no GET \/v1\/nothing\)/)
  })
})
