import { describe, expect, it } from 'vitest'
import { SandboxError } from './errors.js'
import { parseDuration } from './durations.js'

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
