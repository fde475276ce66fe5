import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEYS, startSandbox, type TestSandbox } from '../test-support/http.js'
import { sendRaw } from '../test-support/twins.js'

/**
 * Key-shaped values in every escape form (`\u`, percent, both, either hex case, mixed) in query
 * names and values, header values and bodies, on both hosts, hosted `/mcp` and the control plane,
 * with and without credentials (issue 36: one anonymous GET with such a query value killed the
 * process). Every answer is below 500 and JSON; afterwards the sandbox still answers, and nothing
 * it journaled spells the key once decoded. Seeded (src/test-support/fast-check-seed.ts).
 */
const TAIL = 'Zq9mW2xR7tLp4Kd8Vb3Nc6Hj1Fg5Ys0E'
const SECRET = `svc_test_${TAIL}`
const hex = (c: string, upper: boolean) => {
  const h = c.charCodeAt(0).toString(16).padStart(2, '0')
  return upper ? h.toUpperCase() : h
}

/** The secret with each character written plain, as `\uXXXX` or as `%XX`, in either hex case. */
const written = fc.array(fc.record({ form: fc.constantFrom('plain', 'u', 'pct'), upper: fc.boolean() }), { minLength: SECRET.length, maxLength: SECRET.length })
  .map((forms) => [...SECRET].map((c, i) => {
    const { form, upper } = forms[i]
    if (form === 'u') return `\\u${hex(c, upper).padStart(4, '0')}`
    return form === 'pct' ? `%${hex(c, upper)}` : c
  }).join(''))
const value = fc.tuple(fc.constantFrom('', 'x', '\\', '"', 'é '), written, fc.constantFrom('', '&', '=', '\\', 'ü')).map((parts) => parts.join(''))

type Place = 'query name' | 'query value' | 'header' | 'JSON body' | 'text body'
const PLACES: Place[] = ['query name', 'query value', 'header', 'JSON body', 'text body']
const TARGETS = [
  ['api', 'GET', '/v1/me'], ['api', 'GET', '/v1/campaigns'], ['api', 'PATCH', '/v1/campaigns/1545984743/budget'],
  ['base', 'POST', '/api/v1/tools/run'], ['base', 'POST', '/api/v1/keys'], ['base', 'GET', '/api/v1/audit'],
  ['base', 'POST', '/mcp'], ['base', 'GET', '/_sandbox/state'], ['base', 'POST', '/_sandbox/clock'], ['base', 'GET', '/connect/abc'],
] as const
const CREDENTIALS: Array<Record<string, string>> = [{}, { authorization: `Bearer ${KEYS.owner}` }, { 'x-service-key': KEYS.owner }, { 'x-sandbox-admin': 'edges-admin-token-0123456789' }]

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox({ adminToken: 'edges-admin-token-0123456789' })
})
afterAll(async () => sb?.close())

function decodedAll(text: string): string {
  let last = ''
  let out = text
  while (out !== last) {
    last = out
    out = out.replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
  }
  return out
}

describe('a key in any escape form, anywhere in a request, never stops the sandbox', () => {
  it('answers below 500 with JSON wherever the value is put (seeded property)', async () => {
    await fc.assert(fc.asyncProperty(value, fc.constantFrom(...PLACES), fc.constantFrom(...TARGETS), fc.constantFrom(...CREDENTIALS), async (text, place, [host, method, path], credential) => {
      const q = encodeURIComponent(text)
      const query = place === 'query name' ? `?${q}=1` : place === 'query value' ? `?q=${q}` : ''
      const headers: Record<string, string> = { ...credential, accept: 'application/json, text/event-stream', ...(place === 'header' ? { 'x-note': text } : {}) }
      const json = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: text, arguments: { q: text } }, script_name: text, args: ['--x', text], name: text, advance: text })
      const body = place === 'JSON body' ? json : place === 'text body' ? text : undefined
      const origin = host === 'api' ? sb.apiUrl : sb.baseUrl
      // Node's client, not fetch: a GET may carry a body too.
      const answer = await sendRaw(origin, { method, path: `${path}${query}`, body, headers: { ...headers, ...(place === 'text body' ? { 'content-type': 'text/plain' } : {}) } })
      expect(answer.status, `${method} ${path} ${place}: ${answer.text.slice(0, 200)}`).toBeLessThan(500)
      expect(String(answer.headers['content-type'] ?? ''), `${method} ${path} ${place}`).toMatch(/json|text\/html|text\/event-stream/)
    }), { numRuns: Number(process.env.ESCAPE_RUNS ?? 150) })
  }, 60_000)

  it('is still alive afterwards, and its journal never spells the key', async () => {
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
    const journal = await sb.base('GET', '/_sandbox/journal?limit=1000')
    expect(journal.status).toBe(200)
    expect(journal.body.entries.length).toBeGreaterThan(50)
    expect(decodedAll(journal.text)).not.toContain(TAIL)
  })
})
