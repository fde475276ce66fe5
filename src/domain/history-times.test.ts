import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { appendEntry, parseInstant, timesOf } from './history-times.js'

describe('timesOf', () => {
  it('lists the instants of a history, the same for a new array sharing its entries, and again after an in-place push', () => {
    const history = [{ at: '2026-03-01T00:00:00.000Z' }, { at: '2026-03-01T09:30:00.250Z' }]
    expect(timesOf(history)).toEqual([Date.parse(history[0].at), Date.parse(history[1].at)])
    const next = [...history, { at: '2026-03-02T00:00:00.000Z' }]
    expect(timesOf(next)).toEqual(next.map((e) => Date.parse(e.at)))
    history.push({ at: '2026-03-03T00:00:00.000Z' })
    expect(timesOf(history)[2]).toBe(Date.parse('2026-03-03T00:00:00.000Z'))
  })
})

describe('appendEntry', () => {
  it.each([
    ['appended', undefined, ['a', 'b', 'c', 'new']],
    ['kept where the filter says so', (_e: unknown, i: number) => i !== 1, ['a', 'c', 'new']],
  ] as const)('lists the instants of the new history as a fresh parse would (%s)', (_name, keep, names) => {
    const history = [
      { at: '2026-03-01T00:00:00.000Z', name: 'a' }, { at: '2026-03-02T10:00:00.500Z', name: 'b' }, { at: 'March 3, 2026 12:00 UTC', name: 'c' },
    ]
    timesOf(history)
    const next = appendEntry(history, { at: '2026-03-04T08:15:00.000Z', name: 'new' }, keep)
    expect(next.map((e) => e.name)).toEqual(names)
    expect(next[0]).toBe(history[0])
    expect(timesOf(next)).toEqual(next.map((e) => Date.parse(e.at)))
    expect(history).toHaveLength(3)
  })
})

describe('parseInstant', () => {
  it.each([
    '2026-03-01T09:30:00.250Z', '2024-02-29T23:59:59.999Z', '1000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z',
    '2026-02-29T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z',
    '2026-03-01T24:00:00.000Z', '2026-03-01T23:60:00.000Z', '2026-03-01T23:59:60.000Z', '0999-03-01T00:00:00.000Z',
    '0050-03-01T00:00:00.000Z', '2026-03-01 09:30:00.250Z', '2026-03-01T09:30:00.250', '2026-03-01T09:30:00Z',
    '+012026-03-01T09:30:00.250Z', '2026-03-01T09:3x:00.250Z', '2026/03/01T09:30:00.250Z', '2026-03-01T09:30:00.-50Z', '',
  ])('reads %j exactly as Date.parse does', (text) => {
    expect(Object.is(parseInstant(text), Date.parse(text))).toBe(true)
  })

  it('agrees with Date.parse on every toISOString text and on texts of that shape with any characters in it', () => {
    fc.assert(fc.property(fc.integer({ min: -62_198_755_200_000, max: 253_402_300_799_999 }), (ms) => {
      const text = new Date(ms).toISOString()
      expect(parseInstant(text)).toBe(ms)
    }), { numRuns: 5000 })
    const char = fc.constantFrom(...'0123456789-T:.Z+ x/')
    const shaped = fc.tuple(fc.integer({ min: 0, max: 23 }), char, fc.integer({ min: 0, max: 9_999_999_999_999 })).map(([at, c, ms]) => {
      const text = new Date(Math.min(ms, 253_402_300_799_999)).toISOString()
      return text.length === 24 ? text.slice(0, at) + c + text.slice(at + 1) : text
    })
    fc.assert(fc.property(shaped, (text) => {
      expect(Object.is(parseInstant(text), Date.parse(text))).toBe(true)
    }), { numRuns: 5000 })
  })
})
