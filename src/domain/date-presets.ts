import { addDays, dateOf } from './metrics.js'

/**
 * The real tools' `date_range` presets, lower case (issue 35; research sheet §1.3: `today` …
 * `last_3_years`). Calendar presets run to today (this_*) or cover the whole previous period
 * (last_week/month/quarter/year, Monday-based weeks); `last_N_days` ends today. Sandbox decision:
 * the exact list is ours, since the real one is not public (docs/decisions.md).
 */
export const DATE_PRESETS = [
  'today', 'yesterday', 'last_7_days', 'last_14_days', 'last_28_days', 'last_30_days', 'last_60_days', 'last_90_days',
  'last_180_days', 'last_365_days', 'this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'last_quarter',
  'this_year', 'last_year', 'last_2_years', 'last_3_years',
] as const

export type DatePreset = (typeof DATE_PRESETS)[number]

/** The window a preset names on the day `now` falls on (UTC dates, as every sandbox window). */
export function presetRange(preset: DatePreset, now: number): { start_date: string; end_date: string } {
  const today = dateOf(now)
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))]
  const day = (year: number, month: number, d = 1) => new Date(Date.UTC(year, month - 1, d)).toISOString().slice(0, 10)
  const quarter = Math.floor((m - 1) / 3) * 3 + 1
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7
  const last = /^last_(\d+)_days$/.exec(preset)
  if (last) return { start_date: addDays(today, -(Number(last[1]) - 1)), end_date: today }
  const years = /^last_(\d+)_years$/.exec(preset)
  // At most 1095 days, the longest window the performance script takes (DISP-08).
  if (years) return { start_date: addDays(today, -(Math.min(365 * Number(years[1]), 1095) - 1)), end_date: today }
  switch (preset) {
    case 'today': return { start_date: today, end_date: today }
    case 'yesterday': return { start_date: addDays(today, -1), end_date: addDays(today, -1) }
    case 'this_week': return { start_date: addDays(today, -weekday), end_date: today }
    case 'last_week': return { start_date: addDays(today, -weekday - 7), end_date: addDays(today, -weekday - 1) }
    case 'this_month': return { start_date: day(y, m), end_date: today }
    case 'last_month': return { start_date: day(y, m - 1), end_date: addDays(day(y, m), -1) }
    case 'this_quarter': return { start_date: day(y, quarter), end_date: today }
    case 'last_quarter': return { start_date: day(y, quarter - 3), end_date: addDays(day(y, quarter), -1) }
    case 'this_year': return { start_date: day(y, 1), end_date: today }
    default: return { start_date: day(y - 1, 1), end_date: day(y - 1, 12, 31) }
  }
}
