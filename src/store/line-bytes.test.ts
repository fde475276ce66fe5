import { describe, expect, it } from 'vitest'
import { LineBytes } from './line-bytes.js'

describe('LineBytes', () => {
  it.each([
    ['ASCII', '{"t":"audit","s":1}'],
    ['two-byte characters', 'café, naïve, Zürich'],
    ['three-byte characters', '広告キャンペーン €'],
    ['surrogate pairs (four bytes each)', '🚀📈🧪'.repeat(10)],
    ['an empty line', ''],
  ])('writes %s as UTF-8 with a newline and says how many bytes the text took', (_what, text) => {
    const out = new LineBytes()
    expect(out.line(text)).toBe(Buffer.byteLength(text))
    expect(out.bytes.toString('utf8')).toBe(`${text}\n`)
    expect(out.length).toBe(Buffer.byteLength(text) + 1)
  })

  it('grows past its first capacity and keeps every byte written before', () => {
    const out = new LineBytes()
    const lines = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"name":"Kinderwagen ${'ü'.repeat(i % 40)}"}`)
    for (const line of lines) out.line(line)
    expect(out.length).toBeGreaterThan(64 * 1024)
    expect(out.bytes.toString('utf8')).toBe(lines.join('\n') + '\n')
  })

  it('starts afresh at reset, and a copy taken before stays as it was', () => {
    const out = new LineBytes()
    out.append('header ')
    out.line('first')
    const copy = out.copy(7)
    out.reset()
    out.line('second')
    expect(copy.toString()).toBe('first\n')
    expect(out.bytes.toString()).toBe('second\n')
  })

  it('lets a buffer grown by one large flush go at the next reset', () => {
    const out = new LineBytes()
    out.line('x'.repeat(1 << 20))
    out.reset()
    out.line('small')
    // The large buffer is gone: writing a small line again costs no more than the kept capacity.
    expect(out.bytes.buffer.byteLength).toBeLessThanOrEqual(64 * 1024 + 8192)
    expect(out.bytes.toString()).toBe('small\n')
  })
})
