import type { ScriptContext, ScriptExecutor } from './types.js'
import { nowIn } from '../workspace-time.js'
import { optional } from './types.js'
import { campaignRow, listCampaigns, resolveRange } from '../campaign-view.js'
import type { CampaignRow, DateRange } from '../campaign-view.js'
import { keepUnchanged, sameRows } from '../kept-values.js'
import { findCampaign } from '../campaigns.js'
import type { AccountSelection } from '../account-selection.js'
import { campaignInAccount, selectAccount } from '../account-selection.js'
import type { DatePreset } from '../date-presets.js'
import { presetRange } from '../date-presets.js'
import { SandboxError } from '../errors.js'
import { addDays, metricsRange, sumMetrics, withTotals } from '../metrics.js'
import type { DayMetrics } from '../metrics.js'
import type { Campaign, Connection } from '../model.js'

function selectionOf(ctx: ScriptContext): AccountSelection {
  return { account_id: optional<string>(ctx, 'account_id'), account_name: optional<string>(ctx, 'account_name') }
}

/** The account a read covers: the selected or only one; a campaign id names its own (issue 35). */
function accountOf(ctx: ScriptContext): Connection {
  const id = optional<string>(ctx, 'campaign_id')
  if (id !== undefined) {
    const campaign = campaignInAccount(ctx.deps, findCampaign(ctx.deps, ctx.workspace.id, id), selectionOf(ctx))
    return ctx.deps.store.connections.get(campaign.connection_id) as Connection
  }
  return selectAccount(ctx.deps, ctx.workspace.id, selectionOf(ctx))
}

function rangeOf(ctx: ScriptContext): DateRange {
  const preset = optional<DatePreset>(ctx, 'date_range')
  if (preset !== undefined) {
    const other = ['days', 'start_date', 'end_date', 'date'].find((k) => optional(ctx, k) !== undefined)
    if (other) throw new SandboxError('INVALID_ARGS', { flag: '--date-range', reason: `cannot be combined with --${other.replace(/_/g, '-')}` })
    return resolveRange(presetRange(preset, nowIn(ctx.deps, ctx.workspace.id)), nowIn(ctx.deps, ctx.workspace.id))
  }
  const date = optional<string>(ctx, 'date')
  if (date !== undefined) {
    return resolveRange({ days: optional(ctx, 'days'), start_date: date, end_date: date }, nowIn(ctx.deps, ctx.workspace.id), { days: '--days', start_date: '--date' })
  }
  return resolveRange({ days: optional(ctx, 'days'), start_date: optional(ctx, 'start_date'), end_date: optional(ctx, 'end_date') }, nowIn(ctx.deps, ctx.workspace.id))
}

function campaignsOf(ctx: ScriptContext, account: Connection): Campaign[] {
  const id = optional<string>(ctx, 'campaign_id')
  if (id !== undefined) return [findCampaign(ctx.deps, ctx.workspace.id, id)]
  return listCampaigns(ctx.deps, ctx.workspace.id).filter((c) => c.connection_id === account.id)
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
    campaignsOf(ctx, accountOf(ctx))
    return {}
  },
  run(ctx) {
    const now = nowIn(ctx.deps, ctx.workspace.id)
    const range = rangeOf(ctx)
    const connection = accountOf(ctx)
    const campaigns = campaignsOf(ctx, connection)
    const rows = campaigns.map((c) => metricsRange(c, range.start_date, range.end_date, now))
    const summary = sumMetrics(rows.flat())
    const level = optional<string>(ctx, 'level') ?? 'campaign'
    return {
      result: {
        platform: 'google',
        account_id: connection.account_id,
        account_name: connection.account_name,
        currency: connection.currency,
        date_range: range,
        level,
        summary,
        campaigns: level === 'account'
          ? [withTotals({ account_id: connection.account_id, account_name: connection.account_name }, summary)]
          : campaigns.map((c, i) => withTotals({ campaign_id: c.id, campaign_name: c.campaign_name, status: c.status }, sumMetrics(rows[i]))),
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
  preflight(ctx) {
    accountOf(ctx)
    return {}
  },
  run(ctx) {
    const now = nowIn(ctx.deps, ctx.workspace.id)
    const status = optional<string>(ctx, 'status')
    const account = accountOf(ctx)
    const all = listCampaigns(ctx.deps, ctx.workspace.id, { status }).filter((c) => c.connection_id === account.id)
    const limit = optional<number>(ctx, 'limit') ?? 50
    const result = { platform: 'google', total_campaigns: all.length, date_range: 'LAST_30_DAYS', campaigns: all.slice(0, limit).map((c) => campaignRow(c, now)) }
    return { result: keepUnchanged(ctx.deps, `list_campaigns|${ctx.workspace.id}|${account.id}|${status}|${limit}`, result, { same: sameListResult }) }
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
    accountOf(ctx)
    return {}
  },
  run(ctx) {
    const now = nowIn(ctx.deps, ctx.workspace.id)
    const range = rangeOf(ctx)
    const connection = accountOf(ctx)
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
