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
  return Object.fromEntries(fields.map((f) => [f, round(median(runs.map((r) => Number(r[f]))), 2)])) as Record<K, number>
}
