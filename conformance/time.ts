import { parseDuration } from '../src/domain/durations.js'

/** A scenario duration (`500ms`, `2s`, `31m`, or milliseconds) in milliseconds. */
export function parseMs(value: string | number): number {
  return parseDuration(value)
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
