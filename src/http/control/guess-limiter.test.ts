import { describe, expect, it } from 'vitest'
import { GUESS_LIMIT, GuessLimiter } from './guess-limiter.js'

describe('the admin-token guess limit (issue 33)', () => {
  it('allows a burst of wrong guesses, then asks the client to wait until one is back', () => {
    let now = 1_000_000
    const limiter = new GuessLimiter(GUESS_LIMIT, () => now)
    for (let i = 0; i < GUESS_LIMIT.burst; i++) {
      expect(limiter.retryAfter('10.0.0.1')).toBe(0)
      limiter.spend('10.0.0.1')
    }
    expect(limiter.retryAfter('10.0.0.1')).toBe(1)
    // Another client is not held up by the first one's guesses.
    expect(limiter.retryAfter('10.0.0.2')).toBe(0)
    now += 1000 / GUESS_LIMIT.per_second
    expect(limiter.retryAfter('10.0.0.1')).toBe(0)
    limiter.spend('10.0.0.1')
    expect(limiter.retryAfter('10.0.0.1')).toBe(1)
  })

  it('lets at most burst + per_second × seconds guesses through a loop that never stops', () => {
    let now = 0
    const limiter = new GuessLimiter({ burst: 5, per_second: 2 }, () => now)
    let allowed = 0
    for (let tick = 0; tick < 10_000; tick++) {
      now = tick // one attempt per millisecond for 10 s
      if (limiter.retryAfter('a') === 0) {
        allowed++
        limiter.spend('a')
      }
    }
    expect(allowed).toBeLessThanOrEqual(5 + 2 * 10)
    expect(allowed).toBeGreaterThanOrEqual(5 + 2 * 9)
  })

  it('keeps memory bounded when many addresses guess once each', () => {
    const limiter = new GuessLimiter(GUESS_LIMIT, () => 0)
    for (let i = 0; i < 12_000; i++) limiter.spend(`client-${i}`)
    // The newest client is remembered; memory stays within the bound (forgotten ones start with a full burst).
    expect(limiter.retryAfter('client-11999')).toBe(0)
    expect(limiter.size).toBeLessThanOrEqual(10_000)
  })
})
