import { describe, expect, it, vi } from 'vitest'
import { bodyToWrite, jsonText } from './json-text.js'

class Point {
  constructor(readonly x: number) {}
}
const row = Object.freeze({ campaign_id: '1', clicks: 3, ctr: 0.1234, name: 'a "quoted" \u2028 name' })

describe('jsonText', () => {
  it.each<[string, unknown]>([
    ['primitives', [1, -0, 1e21, NaN, Infinity, 'text', true, null]],
    ['nested objects and arrays', { a: { b: [1, { c: 'd' }] }, e: [] , f: {} }],
    ['values JSON leaves out or nulls', { u: undefined, f: () => 1, s: Symbol('x'), list: [undefined, () => 1, Symbol('y')] }],
    ['toJSON, dates and class instances', { when: new Date(0), custom: { toJSON: () => 'custom' }, point: new Point(2), map: new Map([[1, 2]]) }],
    ['odd keys', { 'quo"te': 1, '\n': 2, '': 3, 10: 4, 2: 5 }],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1 })],
    ['frozen rows shared by several lists', { campaigns: [row, row, { ...row }], again: Object.freeze([row]) }],
    ['a frozen row deep inside plain objects, beside a toJSON', { result: { page: { rows: [row] }, when: new Date(0) }, audit: { args: ['--x', '1'] } }],
    ['a frozen row inside a class instance (left to JSON.stringify)', { point: Object.assign(new Point(1), { row }) }],
  ])('writes %s exactly as JSON.stringify', (_what, value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value))
    // The second time comes from what was kept.
    expect(jsonText(value)).toBe(JSON.stringify(value))
  })

  it('reuses the text of a frozen row and never keeps a mutable one', () => {
    const mutable: Record<string, unknown> = { clicks: 1 }
    expect(jsonText([mutable])).toBe('[{"clicks":1}]')
    mutable.clicks = 2
    expect(jsonText([mutable])).toBe('[{"clicks":2}]')
    expect(jsonText({ rows: [row] })).toContain(JSON.stringify(row))
  })

  it('serialises the frozen rows of a list body (two levels down) once, and later bodies reuse their text', () => {
    const kept = Object.freeze({ campaign_id: 'kept', clicks: 1 })
    jsonText({ campaigns: [kept], sandbox: true })
    const stringify = vi.spyOn(JSON, 'stringify')
    try {
      const body = { platform: 'google', campaigns: [kept, kept], credits_used: 1, sandbox: true }
      expect(jsonText(body)).toBe(JSON.stringify(body))
      // Only jsonText's own calls count (the check above makes the last one): keys and primitives, never a row or the body.
      expect(stringify.mock.calls.slice(0, -1).filter(([value]) => typeof value === 'object')).toEqual([])
    } finally {
      stringify.mockRestore()
    }
  })

  it('writes a body with a frozen row deep inside plain parts exactly as JSON.stringify', () => {
    const deep = Object.freeze({ id: 'deep', n: 1 })
    expect(jsonText({ a: { b: [deep] } })).toBe('{"a":{"b":[{"id":"deep","n":1}]}}')
    const body = { status: 'ok', result: { rows: [deep] }, extra: { list: [1, 2] } }
    expect(jsonText(body)).toBe(JSON.stringify(body))
  })

  it('writes a text as itself the first time and as UTF-8 bytes, encoded once, while the same text comes again', () => {
    const text = jsonText({ name: 'café ☕', rows: [row] })
    expect(bodyToWrite(text)).toBe(text)
    const bytes = bodyToWrite(`${text}`)
    expect(Buffer.isBuffer(bytes) && bytes.equals(Buffer.from(text, 'utf8'))).toBe(true)
    expect(bodyToWrite(text)).toBe(bytes)
    const other = `${text.slice(0, -1)} }`
    expect(bodyToWrite(other)).toBe(other)
    const back = bodyToWrite(text)
    expect(back).toBe(text)
    expect((bodyToWrite(text) as Buffer).toString('utf8')).toBe(text)
  })
})
