import type { FlagSpec, FlagType } from './catalog.js'
import { DATE_PRESETS } from './date-presets.js'

/** Shorthand for a flag spec; optional and single unless told. */
export function flag(name: string, type: FlagType, description: string, extra: Partial<FlagSpec> = {}): FlagSpec {
  return { name, type, required: false, repeatable: false, description, ...extra }
}

/** Google Ads daily budget bounds (RULES sandbox decision: 1.00 to 50 000 per day). */
export const GOOGLE_BUDGET = { min: 1, max: 50_000 }

export const PLATFORMS = ['google']

export const campaignIdFlag = flag('--campaign-id', 'string', 'Campaign id, as listed by list_campaigns.', { required: true })
export const dailyBudgetFlag = flag('--daily-budget', 'number', 'Daily budget in the account currency (Google: 1.00 to 50000).', {
  required: true, bounds: GOOGLE_BUDGET,
})
export const geoTargetsFlag = flag('--geo-targets', 'list', 'Comma-separated geo target constants, e.g. 2840 (US), 2826 (UK).')
export const headlineFlag = (min: number, max: number): FlagSpec =>
  flag('--headline', 'string', `Ad headline, ${min} to ${max} of them, each at most 30 characters.`, {
    required: true, repeatable: true, bounds: { max_length: 30, min_count: min, max_count: max },
  })
export const descriptionFlag = (min: number, max: number): FlagSpec =>
  flag('--description', 'string', `Ad description, ${min} to ${max} of them, each at most 90 characters.`, {
    required: true, repeatable: true, bounds: { max_length: 90, min_count: min, max_count: max },
  })

/** Account selection, as the real tools take it (issue 35); a workspace with several accounts needs one. */
export const accountFlags: readonly FlagSpec[] = [
  flag('--account-id', 'string', 'Ad account id, e.g. 123-456-7890 (dashes optional); needed when the workspace has several accounts.'),
  flag('--account-name', 'string', 'Ad account name (any case), instead of --account-id.', { bounds: { max_length: 255 } }),
]

/** A named window (issue 35), instead of --days or --start-date/--end-date. */
export const dateRangeFlag = flag('--date-range', 'string', `Named window, lower case: ${DATE_PRESETS.join(', ')}.`, { choices: DATE_PRESETS })
