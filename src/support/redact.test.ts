import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { redactCredential, redactText, redactValue } from './redact.js'

const KEY = 'svc_test_ownerAcme00000000000000000000000'
const MASKED = 'svc_test_own…[redacted]'
const TOKEN = `mcp_at_${'a'.repeat(40)}`
/** The control plane's generated admin token: `sbx_admin_` + 32 random bytes in base64url. */
const ADMIN = `sbx_admin_${'Qx-_9'.repeat(8)}abc`

/** Every character as a JSON `\uXXXX` escape. */
const jsonEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
/** Every character as `%XX`. */
const percentAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('')

describe('redaction', () => {
  it('masks every key value in text as its 12-character prefix', () => {
    expect(redactText(`{"key":"${KEY}","again":"${KEY}"}`)).toBe(`{"key":"${MASKED}","again":"${MASKED}"}`)
    expect(redactText('svc_abcdefghijklmnopqrstuvwxyz012345')).toBe('svc_abcdefgh…[redacted]')
    expect(redactText('nothing secret here')).toBe('nothing secret here')
  })

  it.each([
    ['a JSON string with one escaped character', `{"name":"\\u0073${KEY.slice(1)}"}`, `{"name":"${MASKED}"}`],
    ['a JSON string with every character escaped', `{"name":"${jsonEscaped(KEY)}","n":1}`, `{"name":"${MASKED}","n":1}`],
    ['a query string with percent-encoded underscores', `?a=1&campaign-name=${KEY.replaceAll('_', '%5F')}&b=2`, `?a=1&campaign-name=${MASKED}&b=2`],
    ['a form body with every character percent-encoded', `name=${percentAll(KEY)}&x=%20`, `name=${MASKED}&x=%20`],
    ['lower-case percent escapes mixed with JSON escapes', `"${KEY.slice(0, 3)}%5f\\u0074${KEY.slice(5)}"`, `"${MASKED}"`],
    ['a path segment', `/api/v1/keys/svc%5Ftest%5F${KEY.slice(9)}/revoke`, `/api/v1/keys/${MASKED}/revoke`],
    ['an OAuth token', `token=${TOKEN.replaceAll('_', '%5F')}`, 'token=mcp_at_aaaaa…[redacted]'],
    ['an admin token in a query', `?admin=${ADMIN}&x=1`, '?admin=sbx_admin_Qx…[redacted]&x=1'],
    ['an admin token with every character JSON-escaped', `{"t":"${jsonEscaped(ADMIN)}"}`, '{"t":"sbx_admin_Qx…[redacted]"}'],
    ['an admin token with every character percent-encoded', `t=${percentAll(ADMIN)}`, 't=sbx_admin_Qx…[redacted]'],
  ])('masks a key disguised in %s, keeping the text around it as written', (_where, text, shown) => {
    expect(redactText(text)).toBe(shown)
  })

  it('leaves escaped text that spells no key as it was written', () => {
    const text = `{"name":"${jsonEscaped('just a campaign name that is long enough')}","q":"a%20b%5F${'c'.repeat(40)}"}`
    expect(redactText(text)).toBe(text)
  })

  it('masks key-shaped strings anywhere in a value and keeps clean values as the same reference', () => {
    const clean = { args: ['--campaign-name', 'Spring'], after: { name: 'Spring', tags: [1, null] } }
    expect(redactValue(clean)).toBe(clean)
    const dirty = { args: ['--campaign-name', KEY], after: { name: `x ${KEY}`, [KEY]: true, n: 3 } }
    expect(redactValue(dirty)).toEqual({ args: ['--campaign-name', MASKED], after: { name: `x ${MASKED}`, [MASKED]: true, n: 3 } })
    expect(dirty.args[1]).toBe(KEY)
  })

  it('keeps a record whose only secret-like text is shorter than any secret (a stored key prefix) as the same reference', () => {
    const row = { key_prefix: KEY.slice(0, 12), args: ['--campaign-id', '123'], note: '100%', name: `svc_${'a'.repeat(31)}` }
    expect(redactValue(row)).toBe(row)
    expect(redactValue({ ...row, name: `svc_${'a'.repeat(32)}` }).name).toBe(`svc_${'a'.repeat(8)}…[redacted]`)
  })

  it('masks plain text exactly as the regular expression over the whole text does, near misses included', () => {
    const SECRET = /svc_(?:test_)?[A-Za-z0-9_-]{32}|mcp_(?:at|rt|ac)_[A-Za-z0-9]{40}|sbx_admin_[A-Za-z0-9_-]{43}/g
    const piece = fc.constantFrom('svc_', 'svc_test_', 'test_', 'mcp_', 'mcp_at_', 'mcp_rt_', 'mcp_ac_', 'mcp_xy_', 'at_', 'sbx_', 'sbx_admin_', '-', '_', '"', ' ', 'é', 'A'.repeat(31), 'b'.repeat(32), '7'.repeat(39), 'z'.repeat(40), 'c'.repeat(42), KEY, TOKEN, ADMIN, KEY.slice(0, 12))
    fc.assert(fc.property(fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')), (text) => {
      expect(redactText(text)).toBe(text.replace(SECRET, (m) => `${m.slice(0, 12)}…[redacted]`))
    }), { numRuns: 3000 })
  })

  it('masks every string of any JSON value exactly as redactText does, and copies only what changed', () => {
    const piece = fc.constantFrom(KEY, TOKEN, jsonEscaped(KEY), percentAll(KEY), 'svc_', 'mcp_', '%41', '\\u0041', 'Spring', ' ', 'x', KEY.slice(0, 12), 'A'.repeat(31))
    const text = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''))
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    })).value
    /** The reference: every string (keys too) through redactText, a fresh copy throughout. */
    const expected = (v: unknown): unknown => typeof v === 'string' ? redactText(v)
      : Array.isArray(v) ? v.map(expected)
      : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, item]) => [redactText(k), expected(item)])) : v
    fc.assert(fc.property(json, (value) => {
      const before = JSON.stringify(value)
      const shown = redactValue(value)
      expect(shown).toEqual(expected(value))
      expect(JSON.stringify(value)).toBe(before)
      if (JSON.stringify(expected(value)) === before) expect(shown).toBe(value)
    }))
  })

  it.each([
    [`Bearer ${KEY}`, `Bearer ${MASKED}`],
    [KEY, MASKED],
    ['short', '[redacted]'],
    ['Bearer short', 'Bearer [redacted]'],
  ])('masks the credential header %j whatever its shape', (value, shown) => {
    expect(redactCredential(value)).toBe(shown)
  })
})

describe('redaction keeps JSON text JSON (issue 36)', () => {
  it('masks a key after an escaped backslash without leaving a lone backslash behind', () => {
    const text = JSON.stringify({ q: `\\u0073${KEY.slice(1)}` })
    expect(JSON.parse(redactText(text))).toEqual({ q: MASKED })
    // A literal `\u0073` behind an escaped backslash is masked with its backslashes (issue 36: a dedupe key).
    const two = JSON.stringify({ q: `\\\\u0073${KEY.slice(1)}` })
    expect(JSON.parse(redactText(two))).toEqual({ q: MASKED })
  })

  it('turns any JSON-serialised string of escape pieces into JSON that still parses (seeded)', () => {
    const piece = fc.constantFrom('\\', '\\u0073', 'u0073', KEY.slice(1), KEY, '%5f', '%5F', '\\u005f', '"', 'vc_test_', 'é', jsonEscaped(KEY))
    fc.assert(fc.property(fc.array(piece, { maxLength: 6 }).map((p) => p.join('')), (value) => {
      const masked = redactText(JSON.stringify({ [value]: value }))
      expect(() => JSON.parse(masked)).not.toThrow()
    }), { seed: 36, numRuns: 2000 })
  })
})
