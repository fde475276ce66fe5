import { describe, expect, it } from 'vitest'
import { ServiceError } from './errors.js'
import { backoffMs, DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfter, retryDelayMs } from './retry-policy.js'

describe('which failures are retried (SDK-03)', () => {
  it.each([
    ['429', new ServiceError(429, { code: 'RATE_LIMITED' }), true],
    ['a network error', ServiceError.transport('network', 'reset'), true],
    ['a timeout', ServiceError.transport('timeout', 'slow'), true],
    ['400', new ServiceError(400, { code: 'UNRECOGNIZED_ARGS' }), false],
    ['401', new ServiceError(401, {}), false],
    ['402', new ServiceError(402, {}), false],
    ['403', new ServiceError(403, {}), false],
    ['404', new ServiceError(404, {}), false],
    ['500', new ServiceError(500, {}), false],
    ['503', new ServiceError(503, {}), false],
    ['a validation error', ServiceError.validation('bad'), false],
  ])('%s → retried: %s', (_name, error, retried) => {
    expect(isRetryable(error)).toBe(retried)
  })
})

describe('backoff: base 1 s doubling, cap 10 s (SDK-03)', () => {
  it.each([[1, 1000], [2, 2000], [3, 4000], [4, 8000], [5, 10_000], [9, 10_000]])('retry %i waits %i ms', (retry, ms) => {
    expect(backoffMs(retry)).toBe(ms)
  })

  it('follows a custom base and cap', () => {
    expect(backoffMs(3, { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 300 })).toBe(300)
  })
})

describe('Retry-After wins over the backoff when the server sends one', () => {
  it.each([
    [1, 1000, 1000],
    [3, 1000, 1000],
    [1, 5000, 5000],
    [2, 0, 0],
    [1, 30_000, 30_000],
    [3, null, 4000],
  ])('retry %i with Retry-After %j ms waits %i ms', (retry, retryAfter, ms) => {
    expect(retryDelayMs(retry, retryAfter)).toBe(ms)
  })
})

describe('parsing Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  it.each([
    ['1', 1000],
    [' 2 ', 2000],
    ['0', 0],
    ['Thu, 01 Jan 2026 00:00:03 GMT', 3000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
    ['', null],
    [undefined, null],
    ['soon', null],
    ['-1', null],
  ])('%j → %j ms', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms)
  })
})
