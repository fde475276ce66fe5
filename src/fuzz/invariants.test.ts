import { beforeAll, describe, expect, it } from 'vitest'
import { Contract } from '../../conformance/contract.js'
import { checkExchange } from './invariants.js'
import type { Judge, Observed } from './invariants.js'
import type { RawRequest, RawResponse } from './target.js'
import { parseBlock, renderBlock } from './reliability.js'

const KEY = 'svc_test_ownerAcme00000000000000000000000'
let judge: Judge
beforeAll(async () => {
  judge = { contract: await Contract.load(), keyValues: new Set([KEY]) }
})

const json = { 'content-type': 'application/json; charset=utf-8' }
const req = (over: Partial<RawRequest> = {}): RawRequest => ({ host: 'api', method: 'GET', path: '/v1/credits', headers: {}, ...over })
const res = (status: number, body: unknown, headers: RawResponse['headers'] = json): RawResponse => ({ status, headers, text: typeof body === 'string' ? body : JSON.stringify(body) })
const same = { audit: '1', ledger: '2', workspaces: '3' }
const seen = (r: RawRequest, s: RawResponse, after = same): Observed => ({ req: r, res: s, before: same, after })
const refusal = { error: 'No key.', code: 'AUTHENTICATION_REQUIRED' }

describe('the fuzz invariants', () => {
  it.each<[string, Observed, string[]]>([
    ['a plain refusal', seen(req(), res(401, refusal)), []],
    ['a valid 2xx', seen(req(), res(200, { workspace_id: 'ws', balance: 1, payment_method: true, used_by_key: 0, ledger: [] })), []],
    ['a 5xx', seen(req(), res(500, { error: 'x', code: 'INTERNAL_ERROR' })), ['5xx']],
    ['no answer', seen(req(), { status: 0, headers: {}, text: '', failure: 'no answer within 10000 ms' }), ['no-answer']],
    ['a refusal without code', seen(req(), res(400, { error: 'bad' })), ['error-shape']],
    ['a refusal in HTML', seen(req(), res(404, '<html></html>', { 'content-type': 'text/html' })), ['error-shape']],
    ['a bodiless refusal', seen(req(), res(417, '', {})), ['error-shape']],
    ['a HEAD refusal without a body', seen(req({ method: 'HEAD' }), res(431, '', {})), []],
    ['a HEAD refusal with a body', seen(req({ method: 'HEAD' }), res(431, refusal)), ['error-shape']],
    ['a refusal that changed a table', seen(req(), res(403, refusal), { ...same, workspaces: '9' }), ['refused-changed-state']],
    ['an audited block that moved only audit and ledger', seen(req(), res(403, { ...refusal, audit_id: 'aud_1' }), { ...same, audit: '9', ledger: '9' }), []],
    ['an audited block that moved credits', seen(req(), res(403, { ...refusal, audit_id: 'aud_1' }), { ...same, workspaces: '9' }), ['refused-changed-state']],
    ['a 2xx off the contract', seen(req(), res(200, { balance: 'lots' })), ['contract']],
    ['a key value in a refusal', seen(req(), res(400, { error: `bad ${KEY}`, code: 'X' })), ['key-leak']],
    ['a key value at its creation', seen(req({ method: 'POST', host: 'base', path: '/api/v1/keys' }), res(201, { key: KEY })), ['contract']],
    ['an MCP 401 without a challenge', seen(req({ host: 'base', method: 'POST', path: '/mcp' }), res(401, { error: 'invalid_token' })), ['error-shape']],
    ['an MCP 401 with a challenge', seen(req({ host: 'base', method: 'POST', path: '/mcp' }), res(401, { error: 'invalid_token' }, { ...json, 'www-authenticate': 'Bearer resource_metadata="x"' })), []],
    ['an MCP JSON-RPC refusal', seen(req({ host: 'base', method: 'POST', path: '/mcp' }), res(406, { jsonrpc: '2.0', error: { code: -32000, message: 'no' }, id: null })), []],
  ])('judge %s', (_what, observed, kinds) => {
    expect([...new Set(checkExchange(judge, observed).map((v) => v.kind))]).toEqual(kinds)
  })

  it('renders a Reliability block that parses back to the same figures', () => {
    const figures = { seed: 1, runs: 3, requests: 3, unsendable: 0, statuses: { 200: 3 }, violations: { 'no-answer': 0, '5xx': 1, 'error-shape': 0, 'refused-changed-state': 2, contract: 0, 'key-leak': 0 }, known: {}, examples: [] }
    const parsed = parseBlock(`# doc\n${renderBlock(figures, 'today')}\nmore`)
    expect('rows' in parsed && Object.fromEntries(parsed.rows)).toMatchObject({ 'requests tried': 3, '5xx answers': 1, 'refused requests that changed state': 2 })
    expect(parseBlock('<!-- fuzz:begin -->\n| requests tried | 1 |\n<!-- fuzz:end -->')).toMatchObject({ error: expect.stringContaining('rows missing') })
    expect(parseBlock('no block')).toMatchObject({ error: expect.stringContaining('missing') })
  })
})
