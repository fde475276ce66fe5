import type { Deps } from './ports.js'
import type { Campaign } from './model.js'
import type { Totals } from './metrics.js'
import { DAY_MS, addDays, dateOf, lastDays, rangeTotals, todaySteadyUntil } from './metrics.js'
import { SandboxError } from './errors.js'

/** A campaign row (DESIGN "Campaign row"): settings plus metrics over a window; ctr is a fraction. */
export interface CampaignRow extends Totals {
  campaign_id: string
  campaign_name: string
  status: string
  daily_budget: number
  currency: string
  bidding_strategy: string
  channel_type: string
}

/** Rows carry 30-day metrics ending today (sandbox time). */
export const ROW_WINDOW_DAYS = 30

/**
 * A campaign's row as of `now`. Rows with the default window are kept per campaign version while
 * today's metrics stay the same (`todaySteadyUntil`), so polling a list rebuilds nothing; the row
 * returned is frozen because it is shared.
 */
export function campaignRow(campaign: Campaign, now: number, days = ROW_WINDOW_DAYS): CampaignRow {
  if (days !== ROW_WINDOW_DAYS) return buildRow(campaign, now, days)
  const kept = steadyRows.get(campaign.id)
  if (kept && kept.campaign === campaign && kept.from <= now && now <= kept.until) return kept.row
  const row = Object.freeze(buildRow(campaign, now, days))
  // Bounded: one entry per campaign id, cleared past this many (many sandboxes in one process).
  if (!kept && steadyRows.size >= STEADY_MAX) steadyRows.clear()
  steadyRows.set(campaign.id, { campaign, from: now, until: todaySteadyUntil(campaign, now), row })
  return row
}

// The row of each campaign's latest version asked for: a changed campaign is a new object (the store
// replaces rows), so the identity check finds a stale one. By id, not a WeakMap keyed by row object:
// every change made a WeakMap entry for the garbage collector to clear (bench/ agent session).
const steadyRows = new Map<string, { campaign: Campaign; from: number; until: number; row: CampaignRow }>()
const STEADY_MAX = 10_000

function buildRow(campaign: Campaign, now: number, days: number): CampaignRow {
  const window = lastDays(now, days)
  const totals = rangeTotals(campaign, window.start_date, window.end_date, now)
  // Spelled out: keys before a spread take V8's slow object path (`withTotals`).
  return {
    campaign_id: campaign.id,
    campaign_name: campaign.campaign_name,
    status: campaign.status,
    daily_budget: campaign.daily_budget,
    currency: campaign.currency,
    impressions: totals.impressions,
    clicks: totals.clicks,
    conversions: totals.conversions,
    cost: totals.cost,
    ctr: totals.ctr,
    cpc: totals.cpc,
    cpa: totals.cpa,
    bidding_strategy: campaign.bidding_strategy,
    channel_type: campaign.channel_type,
  }
}

/** The workspace's campaigns, filtered by status (case-insensitive) and a name fragment. */
export function listCampaigns(deps: Deps, workspaceId: string, filter: { status?: string; name?: string } = {}): Campaign[] {
  const status = filter.status?.toUpperCase()
  const name = filter.name?.toLowerCase()
  return deps.store.campaigns.filter((c) => c.workspace_id === workspaceId &&
    (!status || c.status === status) && (!name || c.campaign_name.toLowerCase().includes(name)))
}

export interface DateRange { start_date: string; end_date: string; days: number }

/**
 * A reporting window from `days` (default 7, ending today) or `start_date`/`end_date` (DISP-08).
 * Bad combinations are 400 INVALID_ARGS naming the flag, before anything runs.
 */
export function resolveRange(input: { days?: number; start_date?: string; end_date?: string }, now: number, names = FLAG_NAMES): DateRange {
  if (input.days !== undefined && input.start_date !== undefined) throw invalid(names.days, `cannot be combined with ${names.start_date}`)
  const end_date = input.end_date ?? dateOf(now)
  const start_date = input.start_date ?? addDays(end_date, -((input.days ?? 7) - 1))
  if (start_date > end_date) throw invalid(names.start_date, `must not be after the end date ${end_date}`)
  const days = Math.round((Date.parse(end_date) - Date.parse(start_date)) / DAY_MS) + 1
  if (days > 1095) throw invalid(names.start_date, `the window is ${days} days; at most 1095`)
  return { start_date, end_date, days }
}

const FLAG_NAMES = { days: '--days', start_date: '--start-date' }

function invalid(flag: string, reason: string): SandboxError {
  return new SandboxError('INVALID_ARGS', { flag, reason })
}
