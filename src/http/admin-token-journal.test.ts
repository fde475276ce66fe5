import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEYS, startSandbox, type TestSandbox } from '../test-support/http.js'
import { sendRaw } from '../test-support/twins.js'

// An agent that got hold of the person's admin token (a log line, a screenshot) and sends it to the
// agent's side of the sandbox, in a query, a header, a body or escaped, must not leave it readable in
// the journal either: the generated token has a shape (`sbx_admin_` + 43), masked like a key.
let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(async () => sb?.close())

const percentAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('')
const jsonEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
const decodedAll = (text: string) => text.replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))

describe('the admin token sent where an agent can reach', () => {
  it('is masked in every journal entry, written plainly, percent-encoded or JSON-escaped', async () => {
    const token = sb.adminToken as string
    expect(token).toMatch(/^sbx_admin_[A-Za-z0-9_-]{43}$/)
    const key = { authorization: `Bearer ${KEYS.agent}` }
    const sent = [
      sendRaw(sb.apiUrl, { method: 'GET', path: `/v1/campaigns?note=${token}`, headers: key }),
      sendRaw(sb.apiUrl, { method: 'GET', path: `/v1/campaigns?note=${percentAll(token)}`, headers: { ...key, 'x-note': token } }),
      sendRaw(sb.baseUrl, { path: '/api/v1/tools/run', headers: key, body: JSON.stringify({ script_name: 'list_campaigns', args: ['--campaign-name', token] }) }),
      sendRaw(sb.baseUrl, { path: '/api/v1/tools/run', headers: key, body: `{"script_name":"list_campaigns","note":"${jsonEscaped(token)}"}` }),
      sendRaw(sb.baseUrl, { path: '/mcp', headers: { 'x-service-key': KEYS.agent, accept: 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_campaigns', arguments: { account_name: token } } }) }),
      sendRaw(sb.baseUrl, { method: 'GET', path: `/api/v1/audit?token=${token}` }),
    ]
    for (const answer of await Promise.all(sent)) expect(answer.status).toBeLessThan(500)
    const journal = await sb.base('GET', '/_sandbox/journal?limit=100')
    expect(journal.body.entries.length).toBeGreaterThanOrEqual(sent.length)
    expect(journal.text).toContain('sbx_admin_')
    expect(decodedAll(journal.text)).not.toContain(token.slice(12))
  })
})
