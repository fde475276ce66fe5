import { describe, expect, it } from 'vitest'
import { LastKept, keepBody } from './journal-body.js'
import { redactHeaders } from './journal-record.js'

const KEY = 'svc_test_Zq9mW2xR7tB4nK8pL3vC6yH1dF5gJ0sA'
const OTHER = 'svc_test_Aa1bB2cC3dD4eE5fF6gG7hH8iI9jJ0kK1'

describe('journal records reused between exchanges', () => {
  it('gives equal request headers the same masked record, and masks changed ones afresh', () => {
    const first = redactHeaders({ host: 'a', authorization: `Bearer ${KEY}` })
    const again = redactHeaders({ host: 'a', authorization: `Bearer ${KEY}` })
    expect(again).toBe(first)
    expect(first.record.authorization).toBe('Bearer svc_test_Zq9…[redacted]')
    const changed = redactHeaders({ host: 'a', authorization: `Bearer ${OTHER}` })
    expect(changed.record.authorization).toBe('Bearer svc_test_Aa1…[redacted]')
    const fewer = redactHeaders({ host: 'a' })
    expect(fewer.record).toEqual({ host: 'a' })
    expect(redactHeaders({ host: 'b' }).record).toEqual({ host: 'b' })
    expect(JSON.stringify([first, changed, fewer])).not.toContain(KEY.slice(12))
  })

  it('reuses the answers of a few alternating header sets, and masks a changed credential afresh in any of them', () => {
    const shapes = [0, 1, 2, 3].map((n) => ({ host: 'a', 'content-length': String(40 + n), authorization: `Bearer ${KEY}` }))
    const firsts = shapes.map((h) => redactHeaders({ ...h }))
    // An agent's loop: the same few request kinds in turn, each answer the one kept for its set.
    for (let round = 0; round < 3; round++) shapes.forEach((h, i) => expect(redactHeaders({ ...h })).toBe(firsts[i]))
    const other = redactHeaders({ ...shapes[2], authorization: `Bearer ${OTHER}` })
    expect(other).not.toBe(firsts[2])
    expect(other.record.authorization).toBe('Bearer svc_test_Aa1…[redacted]')
    // Past the kept sets, the oldest is masked afresh (equal record, new answer).
    for (let n = 0; n < 10; n++) redactHeaders({ host: 'z', 'content-length': String(n) })
    const again = redactHeaders({ ...shapes[0] })
    expect(again).not.toBe(firsts[0])
    expect(again).toEqual(firsts[0])
  })

  it('never reuses an answer for headers whose masking changed a non-credential header', () => {
    const headers = { host: 'a', 'x-note': KEY }
    const first = redactHeaders(headers)
    expect(first.record).toEqual({ host: 'a', 'x-note': 'svc_test_Zq9…[redacted]' })
    const again = redactHeaders({ ...headers })
    expect(again).toEqual(first)
    expect(again).not.toBe(first)
  })

  it('masks a clean body once per distinct text and cap, with the same answer as a fresh keep', () => {
    const kept = new LastKept()
    const body = `{"pad":"${'x'.repeat(2000)}"}`
    const first = kept.keep(body, 64 * 1024)
    expect(first).toEqual({ text: body, truncated: null })
    expect(kept.keep(`${body}`, 64 * 1024)).toBe(first)
    const cut = kept.keep(body, 1024)
    expect(cut).not.toBe(first)
    expect(cut.truncated?.bytes).toBe(Buffer.byteLength(body))
    expect(kept.keep(Buffer.from(body), 1024)).toEqual(cut)
  })

  // A long listing answered again with another JSON-RPC id: the id lies past the cut, the window is the same.
  const listing = (id: number, tail = '') => `{"result":{"tools":[${'{"name":"t"},'.repeat(6000)}{}]},"id":${id}${tail}}`

  it('masks a long body once while its window is the same, and gives each its own full length', () => {
    const kept = new LastKept()
    const first = kept.keep(listing(1), 64 * 1024)
    const again = kept.keep(listing(12345), 64 * 1024)
    expect(again.text).toBe(first.text)
    expect(again.truncated).toEqual({ bytes: Buffer.byteLength(listing(12345)), kept_bytes: first.truncated?.kept_bytes })
    expect(again).toEqual(keepBody(listing(12345), 64 * 1024))
  })

  it('gives bytes in chunks the answer their joined text gets', () => {
    const kept = new LastKept()
    const text = listing(3)
    const chunks = [Buffer.from(text.slice(0, 70_000)), Buffer.from(text.slice(70_000))]
    expect(kept.keep(chunks, 64 * 1024)).toEqual(keepBody(text, 64 * 1024))
    expect(kept.keep([Buffer.from('{"a":'), Buffer.from('1}')], 64 * 1024)).toEqual({ text: '{"a":1}', truncated: null })
    expect(keepBody([Buffer.from(text.slice(0, 10)), Buffer.from(text.slice(10))], 1024)).toEqual(keepBody(text, 1024))
  })

  it('does not remember a long window that held a secret, and masks a secret past the old window afresh', () => {
    const kept = new LastKept()
    const secret = `{"key":"${KEY}",${listing(1).slice(1)}`
    expect(kept.keep(secret, 64 * 1024).text).toContain('svc_test_Zq9…[redacted]')
    expect(kept.keep(secret, 64 * 1024).text).not.toContain(KEY)
    const clean = kept.keep(listing(1), 64 * 1024)
    // Same window except a key written where the clean one had padding: not the remembered answer.
    const changed = listing(1).replace('{"name":"t"},', `{"name":"${OTHER}"},`)
    const masked = kept.keep(changed, 64 * 1024)
    expect(masked.text).not.toBe(clean.text)
    expect(masked.text).not.toContain(OTHER)
  })

  it('does not remember a body that held a secret', () => {
    const kept = new LastKept()
    const body = `{"key":"${KEY}"}`
    const first = kept.keep(body, 64 * 1024)
    expect(first.text).toBe('{"key":"svc_test_Zq9…[redacted]"}')
    const again = kept.keep(body, 64 * 1024)
    expect(again).toEqual(first)
    expect(again).not.toBe(first)
  })
})

describe('a journal record that cannot be built', () => {
  it('is stored bare with fault journal_error, and the error is reported instead of thrown', async () => {
    const { Journal } = await import('./journal.js')
    const journal = new Journal()
    const exchange = {
      host: 'api' as const, started: 0, sandboxMs: 0, path: '/v1/me', query: {}, status: 200,
      req: { method: 'GET', headers: { host: 'a' } },
      res: { getHeader: () => { throw new Error('boom') } },
      requestBody: '', responseBody: '{}', fault: null,
    }
    expect(() => journal.recordExchange(exchange)).not.toThrow()
    const [entry] = journal.query({}).entries
    expect(entry).toMatchObject({ method: 'GET', status: 200, path: '', fault: 'journal_error' })
  })
})
