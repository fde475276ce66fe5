import { describe, expect, it } from 'vitest'
import { ANONYMOUS_BODY_CAP, BODY_CAP, keepBody } from './journal-body.js'

const KEY = 'svc_test_Zq9mW2xR7tB4nK8pL3vC6yH1dF5gJ0sA'
/** What follows a key's 12-character prefix: none of it may survive. */
const SECRET_PART = KEY.slice(12, 25)
const jsonEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
const decoded = (text: string) =>
  text.replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

describe('journal body', () => {
  it('keeps a body up to the cap whole and masked, with no truncation marker', () => {
    expect(keepBody(`{"name":"${KEY}"}`, BODY_CAP)).toEqual({ text: '{"name":"svc_test_Zq9…[redacted]"}', truncated: null })
  })

  it('cuts a longer body at the cap and records its full and kept sizes in UTF-8 bytes', () => {
    const kept = keepBody(`${'é'.repeat(600)}${'x'.repeat(5000)}`, ANONYMOUS_BODY_CAP)
    expect(kept.text).toBe(`${'é'.repeat(600)}${'x'.repeat(ANONYMOUS_BODY_CAP - 600)}`)
    expect(kept.truncated).toEqual({ bytes: 1200 + 5000, kept_bytes: 1200 + ANONYMOUS_BODY_CAP - 600 })
  })

  it('never splits a surrogate pair at the cut', () => {
    const kept = keepBody(`${'x'.repeat(ANONYMOUS_BODY_CAP - 1)}${'😀'.repeat(100)}`, ANONYMOUS_BODY_CAP)
    expect(kept.text).toBe('x'.repeat(ANONYMOUS_BODY_CAP - 1))
  })

  // Keys starting anywhere around the cut, written plainly or escaped: the kept text never spells more than the prefix.
  const offsets = [-300, -60, -41, -30, -13, -12, -5, 0, 5, 200, 290]
  it.each(offsets.flatMap((offset) => [[offset, 'plain', KEY], [offset, 'JSON-escaped', jsonEscaped(KEY)], [offset, 'percent-encoded', KEY.replaceAll('_', '%5F')]]))(
    'leaves no more than the prefix of a key starting %i characters from the cap (%s)',
    (offset, _how, written) => {
      const cap = 2000
      const text = `${'a '.repeat((cap + (offset as number)) / 2)}${written as string} ${'b'.repeat(3000)}`
      const kept = keepBody(text, cap)
      expect(kept.text.length).toBeLessThanOrEqual(cap)
      expect(decoded(kept.text)).not.toContain(SECRET_PART)
    },
  )

  it.each([...Array(42).keys()])('leaves no part of a key the masked window would pull under the cap (padding %i)', (pad) => {
    // Masking many keys shortens the window, so text from its end, where a key may be cut, moves below the cap.
    const kept = keepBody(`${'p'.repeat(pad)}${`${KEY} `.repeat(100)}`, 2000)
    expect(kept.text).not.toContain(SECRET_PART)
  })

  it('keeps the text of a cut body as its own string, not a view of the dropped megabyte', () => {
    const kept = keepBody('z'.repeat(1_000_000), ANONYMOUS_BODY_CAP)
    expect(kept.text).toBe('z'.repeat(ANONYMOUS_BODY_CAP))
    expect(kept.truncated).toEqual({ bytes: 1_000_000, kept_bytes: ANONYMOUS_BODY_CAP })
  })
})
