/** Median of the finite numbers in `values` (NaN when there are none). */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** `a / b`, rounded to two decimals (NaN when b is 0 or missing). */
export function ratio(a: number, b: number): number {
  return b > 0 && Number.isFinite(a) ? round(a / b, 2) : Number.NaN
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

/** The median of each numeric field over several runs of the same measurement. */
export function medianOf<T extends object, K extends keyof T & string>(runs: readonly T[], fields: readonly K[]): Record<K, number> {
  // A figure not measured (null) is left out, not read as 0.
  return Object.fromEntries(fields.map((f) => [f, round(median(runs.map((r) => (r[f] === null ? Number.NaN : Number(r[f])))), 2)])) as Record<K, number>
}

/** How far per-round figures spread: lowest, quartiles and highest (a noisy run shows as a wide spread). */
export interface Spread {
  min: number
  q1: number
  q3: number
  max: number
}

/** The spread of the finite numbers in `values` (quartiles by the median-of-halves method). */
export function spreadOf(values: readonly number[]): Spread {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (sorted.length === 0) return { min: Number.NaN, q1: Number.NaN, q3: Number.NaN, max: Number.NaN }
  const half = Math.floor(sorted.length / 2)
  const low = sorted.slice(0, Math.max(1, half))
  const high = sorted.slice(sorted.length % 2 ? half + (sorted.length > 1 ? 1 : 0) : half)
  return { min: round(sorted[0], 2), q1: round(median(low), 2), q3: round(median(high), 2), max: round(sorted[sorted.length - 1], 2) }
}
