import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { SandboxError } from './errors.js'
import { iso, parseDuration } from './durations.js'

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000], ['31m', 1_860_000], ['1h30m', 5_400_000], ['2d', 172_800_000], ['1.5h', 5_400_000], ['250ms', 250], [1500, 1500], [' 1h 30m ', 5_400_000],
  ])('reads %j as %i ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms)
  })

  it.each(['', '5', '-5m', '5 minutes', '1y', '5м', 'm', '1h-30m', -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %j with a 400 naming the field', (input) => {
    try {
      parseDuration(input as string | number, 'advance')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(SandboxError)
      expect((error as SandboxError).status).toBe(400)
      expect((error as SandboxError).details.field).toBe('advance')
    }
  })
})

describe('iso', () => {
  it('formats every instant of a sequence as Date does, repeated and alternating instants too', () => {
    const instants = [0, 0, 1_764_230_400_123, 1_764_230_400_123, 1, 0, -86_400_000, 8.64e15, 1]
    expect(instants.map(iso)).toEqual(instants.map((ms) => new Date(ms).toISOString()))
  })

  it('formats any sequence drawn from a few instants as Date does (the two kept instants never answer for a third)', () => {
    const pool = [0, 1, 1_764_230_400_000, 1_764_230_400_000 + 72 * 3_600_000, -1]
    fc.assert(fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 40 }), (instants) => {
      expect(instants.map(iso)).toEqual(instants.map((ms) => new Date(ms).toISOString()))
    }))
  })

  it('refuses an instant Date cannot write, every time', () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError)
    expect(() => iso(Number.NaN)).toThrow(RangeError)
  })
})
