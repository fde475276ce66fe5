import { invalidRequest } from './errors.js'
import { durationMs } from '../support/durations.js'

/**
 * Parses `90s`, `31m`, `1h30m`, `2d` or a number of milliseconds. Used by the clock control and
 * scenario `wait` steps.
 */
export function parseDuration(input: string | number, field = 'duration'): number {
  const ms = durationMs(input)
  if (ms === null) throw invalidRequest(`\`${field}\` must be a duration such as 90s, 31m, 1h30m or 2d; got ${JSON.stringify(input)}`, field)
  return ms
}

// Two instants kept, not one: a held write stamps `now` and `now + TTL` in turn, and then `now` again
// (the key's last use), which a one-slot memo formatted afresh every time (3 % of a held write's CPU).
let recentMs = Number.NaN
let recentIso = ''
let olderMs = Number.NaN
let olderIso = ''

/** ISO-8601 text of a sandbox instant. */
export function iso(ms: number): string {
  // One request stamps the same instant several times (audit, ledger, gate): format it once.
  if (ms === recentMs) return recentIso
  if (ms !== olderMs) {
    olderIso = new Date(ms).toISOString()
    olderMs = ms
  }
  const text = olderIso
  olderMs = recentMs
  olderIso = recentIso
  recentMs = ms
  recentIso = text
  return text
}
