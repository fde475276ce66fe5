/** One value of an args map: a string or number is `--flag value`, `true` a bare flag, an array repeats the flag. */
export type ArgValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>
export type ArgsMap = Record<string, ArgValue>

/**
 * `{days: 7, campaign_id: 'c1'}` → `['--days', '7', '--campaign-id', 'c1']` (SDK-01): keys keep their
 * order; `true` is a bare flag, `false`/null/undefined are left out, arrays repeat the flag.
 */
export function toFlags(args: ArgsMap): string[] {
  const out: string[] = []
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null || value === false) continue
    const flag = `--${key.replace(/_/g, '-')}`
    if (value === true) out.push(flag)
    else if (Array.isArray(value)) for (const item of value) out.push(flag, String(item))
    else out.push(flag, String(value))
  }
  return out
}

const NAMED_RANGES: Record<string, number> = { TODAY: 1, YESTERDAY: 1 }

/**
 * An SDK date range to the performance script's `--days` value (SDK-06, DISP-08): `LAST_7_DAYS` → 7,
 * `LAST_30_DAYS` → 30, a positive integer as is. Anything else is `null` (a validation error).
 */
export function daysOf(range: string | number): number | null {
  if (typeof range === 'number') return Number.isInteger(range) && range > 0 ? range : null
  const match = /^LAST_(\d+)_DAYS$/i.exec(range.trim())
  if (match) return Number(match[1]) > 0 ? Number(match[1]) : null
  return NAMED_RANGES[range.trim().toUpperCase()] ?? null
}
