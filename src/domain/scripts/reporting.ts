import type { ScriptContext, ScriptExecutor } from './types.js'
import { nowIn } from '../workspace-time.js'
import { optional } from './types.js'
import { campaignRow, listCampaigns, resolveRange } from '../campaign-view.js'
import type { CampaignRow, DateRange } from '../campaign-view.js'
import { keepUnchanged, sameRows } from '../kept-values.js'
import { findCampaign, googleConnection } from '../campaigns.js'
import { addDays, metricsRange, sumMetrics, withTotals } from '../metrics.js'
import type { DayMetrics } from '../metrics.js'
import type { Campaign } from '../model.js'

function rangeOf(ctx: ScriptContext): DateRange {
  const date = optional<string>(ctx, 'date')
  if (date !== undefined) {
    return resolveRange({ days: optional(ctx, 'days'), start_date: date, end_date: date }, nowIn(ctx.deps, ctx.workspace.id), { days: '--days', start_date: '--date' })
  }
  return resolveRange({ days: optional(ctx, 'days'), start_date: optional(ctx, 'start_date'), end_date: optional(ctx, 'end_date') }, nowIn(ctx.deps, ctx.workspace.id))
}

function campaignsOf(ctx: ScriptContext): Campaign[] {
  const id = optional<string>(ctx, 'campaign_id')
  if (id !== undefined) return [findCampaign(ctx.deps, ctx.workspace.id, id)]
  return listCampaigns(ctx.deps, ctx.workspace.id)
}

/** Sums rows of several campaigns per date, one bucket per day of the window (linear in rows). */
function byDate(rows: DayMetrics[][], range: DateRange): DayMetrics[] {
  const buckets = new Map<string, DayMetrics[]>()
  for (let i = 0; i < range.days; i++) buckets.set(addDays(range.start_date, i), [])
  for (const row of rows.flat()) buckets.get(row.date)?.push(row)
  return [...buckets].map(([date, dayRows]) => withTotals({ date }, sumMetrics(dayRows)))
}

/** `pull_google_ads` (DISP-04, DISP-08): per-campaign totals, account summary and daily totals. */
const pullGoogleAds: ScriptExecutor = {
  preflight(ctx) {
    rangeOf(ctx)
    googleConnection(ctx.deps, ctx.workspace.id)
    campaignsOf(ctx)
    return {}
  },
  run(ctx) {
    const now = nowIn(ctx.deps, ctx.workspace.id)
    const range = rangeOf(ctx)
    const campaigns = campaignsOf(ctx)
    const rows = campaigns.map((c) => metricsRange(c, range.start_date, range.end_date, now))
    const connection = googleConnection(ctx.deps, ctx.workspace.id)
    return {
      result: {
        platform: 'google',
        account_id: connection.account_id,
        currency: connection.currency,
        date_range: range,
        summary: sumMetrics(rows.flat()),
        campaigns: campaigns.map((c, i) => withTotals({ campaign_id: c.id, campaign_name: c.campaign_name, status: c.status }, sumMetrics(rows[i]))),
        daily: byDate(rows, range),
        truncated: false,
        warnings: [],
      },
    }
  },
}

/**
 * `list_campaigns` / `google_ads_list_campaigns` (DISP-07): rows with 30-day metrics. A result equal
 * to the last one (same count, the very same shared rows) is that same frozen result, so its answer
 * is reused whole (`outcomeBody`, `keepUnchanged`).
 */
const listCampaignsScript: ScriptExecutor = {
  run(ctx) {
    const now = nowIn(ctx.deps, ctx.workspace.id)
    const status = optional<string>(ctx, 'status')
    const all = listCampaigns(ctx.deps, ctx.workspace.id, { status })
    const limit = optional<number>(ctx, 'limit') ?? 50
    const result = { platform: 'google', total_campaigns: all.length, date_range: 'LAST_30_DAYS', campaigns: all.slice(0, limit).map((c) => campaignRow(c, now)) }
    return { result: keepUnchanged(ctx.deps, `list_campaigns|${ctx.workspace.id}|${status}|${limit}`, result, { same: sameListResult }) }
  },
}

type ListResult = { platform: string; total_campaigns: number; date_range: string; campaigns: CampaignRow[] }

function sameListResult(a: ListResult, b: ListResult): boolean {
  return a.total_campaigns === b.total_campaigns && sameRows(a.campaigns, b.campaigns)
}

/** `get_account_daily_spend`: account totals per day. */
const dailySpend: ScriptExecutor = {
  preflight(ctx) {
    rangeOf(ctx)
    googleConnection(ctx.deps, ctx.workspace.id, optional(ctx, 'account_id'))
    return {}
  },
  run(ctx) {
    const now = nowIn(ctx.deps, ctx.workspace.id)
    const range = rangeOf(ctx)
    const connection = googleConnection(ctx.deps, ctx.workspace.id, optional(ctx, 'account_id'))
    const campaigns = listCampaigns(ctx.deps, ctx.workspace.id).filter((c) => c.connection_id === connection.id)
    const days = byDate(campaigns.map((c) => metricsRange(c, range.start_date, range.end_date, now)), range)
    return {
      result: {
        platform: 'GOOGLE',
        account_id: connection.account_id,
        currency: connection.currency,
        period: range,
        daily_records: days.map((d) => ({ date: d.date, spend: d.cost, impressions: d.impressions, clicks: d.clicks, conversions: d.conversions })),
        total_period_spend: sumMetrics(days).cost,
      },
    }
  },
}

export const REPORTING_EXECUTORS: Record<string, ScriptExecutor> = {
  pull_google_ads: pullGoogleAds,
  list_campaigns: listCampaignsScript,
  google_ads_list_campaigns: listCampaignsScript,
  get_account_daily_spend: dailySpend,
}
