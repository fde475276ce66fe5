import { describe, expect, it } from 'vitest'
import { timesOf } from './history-times.js'

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
