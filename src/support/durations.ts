const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * A duration as the wire writes it (`90s`, `31m`, `1h30m`, `2d`, or milliseconds as a number) in
 * milliseconds, or null when it is not one. Shared by the clock control (which refuses with its own
 * error) and the conformance kit's `wait` steps, which know only the wire.
 */
export function durationMs(input: string | number): number | null {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : null
  const text = String(input).trim()
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)]
  const consumed = parts.map((p) => p[0]).join('')
  if (parts.length === 0 || consumed !== text.replace(/\s+/g, '')) return null
  return parts.reduce((sum, [, value, unit]) => sum + Number(value) * UNIT_MS[unit], 0)
}
