import type { ServiceError } from './errors.js'

/** Retry settings (SDK-03, SDK-04); the defaults are the spec's §8 values. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number
  /** Backoff of the first retry (default 1000 ms); doubles per retry. */
  baseDelayMs: number
  /** Cap of the backoff (default 10 000 ms). */
  maxDelayMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 10_000 }
export const DEFAULT_TIMEOUT_MS = 30_000

/** Only 429 and failures without an answer (network, timeout) are retried; never another 4xx or 5xx (SDK-03). */
export function isRetryable(error: ServiceError): boolean {
  return error.kind === 'network' || error.kind === 'timeout' || (error.kind === 'http' && error.status === 429)
}

/** Exponential backoff before retry `retry` (1-based): base × 2^(retry-1), capped (SDK-03). */
export function backoffMs(retry: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1))
}

/**
 * The wait before retry `retry`: the server's `Retry-After` when it sent a usable one, else the
 * backoff. Retry-After wins even when the backoff is longer or it is above the cap: the server
 * knows when capacity returns (docs/decisions.md).
 */
export function retryDelayMs(retry: number, retryAfterMs: number | null, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  return retryAfterMs ?? backoffMs(retry, policy)
}

/** `Retry-After` in ms: whole seconds or an HTTP date (from `now`); absent, empty or bad → null. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | null {
  const value = header?.trim()
  if (!value) return null
  if (/^\d+$/.test(value)) return Number(value) * 1000
  // An HTTP date names a weekday and month; bare numbers like `-1` are not dates.
  if (!/[a-z]/i.test(value)) return null
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}
