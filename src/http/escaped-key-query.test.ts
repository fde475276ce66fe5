import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEYS, startSandbox, type TestSandbox } from '../test-support/http.js'

// A key-shaped value whose characters are written in the escape forms docs/security.md lists as masked.
const SECRET = 'svc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
const u = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
const pct = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`
const FORMS: Array<[string, string]> = [
  ['first character as \\u', `${u('s')}${SECRET.slice(1)}`],
  ['every character as \\u', [...SECRET].map(u).join('')],
  ['underscores percent-encoded, lower case', SECRET.replaceAll('_', '%5f')],
  ['mixed \\u and percent', `svc${pct('_')}${u('t')}est_${SECRET.slice(9)}`],
  ['escaped backslash before \\u', `\\${u('s')}${SECRET.slice(1)}`],
]

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(async () => {
  await sb?.close()
})

describe('a key-shaped query value in any escape form (issue 36: one anonymous GET killed the process)', () => {
  it.each(FORMS)('is answered and journaled masked when its %s, on both hosts, with and without a key', async (_form, value) => {
    const q = encodeURIComponent(value)
    for (const [host, path] of [['api', '/v1/me'], ['base', '/api/v1/keys'], ['api', '/v1/campaigns']] as const) {
      for (const key of [undefined, KEYS.owner]) {
        const answer = await sb[host]('GET', `${path}?q=${q}&${q}=name`, { key })
        expect(answer.status).toBeLessThan(500)
        expect(answer.headers.get('content-type')).toMatch(/json/)
      }
    }
    // Still alive, and nothing recorded spells the secret.
    const journal = await sb.base('GET', '/_sandbox/journal?limit=20')
    expect(journal.status).toBe(200)
    expect(journal.text).not.toContain('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
    const query = journal.body.entries.map((e: { query: Record<string, unknown> }) => e.query)
    expect(query.some((q: Record<string, unknown>) => String(q.q).includes('[redacted]'))).toBe(true)
  })

  it('keeps answering whatever escape forms a stranger puts in query names and values (seeded property)', async () => {
    const piece = fc.constantFrom(...FORMS.map(([, v]) => v), '\\', '\\\\', '%', '%5c', 'u0073', '"', 'é', '=', '&')
    await fc.assert(fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.array(piece, { minLength: 1, maxLength: 4 }), async (name, value) => {
      const answer = await sb.api('GET', `/v1/me?${encodeURIComponent(name.join(''))}=${encodeURIComponent(value.join(''))}`)
      expect(answer.status).toBe(401)
    }), { seed: 36, numRuns: 60 })
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
  })
})
