import { durationMs } from '../src/support/durations.js'

/** A scenario duration (`500ms`, `2s`, `31m`, or milliseconds) in milliseconds. */
export function parseMs(value: string | number): number {
  const ms = durationMs(value)
  if (ms === null) throw new Error(`a duration is 90s, 31m, 1h30m, 2d or milliseconds; got ${JSON.stringify(value)}`)
  return ms
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
