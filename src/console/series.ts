import type { Campaign } from '../domain/model.js'
import type { CreditDayTotals } from '../domain/ports.js'
import { addDays, dateOf, lastDays, metricsRange } from '../domain/metrics.js'

/** One sandbox day of metrics for the console charts. */
export interface SeriesDay {
  date: string
  cost: number
  clicks: number
  impressions: number
  conversions: number
}

export interface CampaignSeries {
  campaign_id: string
  campaign_name: string
  currency: string
  status: Campaign['status']
  /** The last day of `days`: it is still running, so its numbers are partial. */
  partial_date: string
  days: SeriesDay[]
}

/** One sandbox day of a workspace's credits: the balance at the end of the day (now, for today). */
export interface CreditDay {
  date: string
  balance: number
  charged: number
  refunded: number
}

export interface AccountSeries {
  workspace_id: string
  currency: string | null
  /** Campaigns summed into `days` (those in `currency`); others are named in `other_currency`. */
  campaigns: number
  other_currency: string[]
  partial_date: string
  days: SeriesDay[]
  credits: CreditDay[]
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** Daily metrics of a campaign for the `days` sandbox days ending today (REST-01 metrics). */
export function campaignSeries(campaign: Campaign, now: number, days: number): CampaignSeries {
  const window = lastDays(now, days)
  const rows = metricsRange(campaign, window.start_date, window.end_date, now)
  return {
    campaign_id: campaign.id,
    campaign_name: campaign.campaign_name,
    currency: campaign.currency,
    status: campaign.status,
    partial_date: window.end_date,
    days: rows.map((r) => ({ date: r.date, cost: r.cost, clicks: r.clicks, impressions: r.impressions, conversions: r.conversions })),
  }
}

/**
 * Account totals of a workspace per day (its campaigns in the account currency summed) and its
 * credit balance per day, rebuilt from the ledger (BILL rules: every charge and refund is a row).
 */
export function accountSeries(input: { workspaceId: string; campaigns: readonly Campaign[]; creditDays: ReadonlyMap<string, CreditDayTotals>; balance: number; now: number; days: number }): AccountSeries {
  const { now, days } = input
  const window = lastDays(now, days)
  const currency = input.campaigns[0]?.currency ?? null
  const summed = input.campaigns.filter((c) => c.currency === currency)
  const dates = Array.from({ length: days }, (_, i) => addDays(window.start_date, i))
  const totals = new Map(dates.map((date) => [date, { date, cost: 0, clicks: 0, impressions: 0, conversions: 0 }]))
  for (const campaign of summed) {
    for (const row of metricsRange(campaign, window.start_date, window.end_date, now)) {
      const day = totals.get(row.date)
      if (!day) continue
      day.cost = round2(day.cost + row.cost)
      day.clicks += row.clicks
      day.impressions += row.impressions
      day.conversions = round2(day.conversions + row.conversions)
    }
  }
  return {
    workspace_id: input.workspaceId,
    currency,
    campaigns: summed.length,
    other_currency: input.campaigns.filter((c) => c.currency !== currency).map((c) => c.id),
    partial_date: window.end_date,
    days: [...totals.values()],
    credits: creditDays(input.creditDays, dates, input.balance),
  }
}


function creditDays(byDate: ReadonlyMap<string, CreditDayTotals>, dates: string[], balance: number): CreditDay[] {
  // The balance before the window: the last line before it, or (no earlier line) today's balance minus every change since.
  let before: CreditDayTotals | undefined
  let sinceStart = 0
  for (const [date, day] of byDate) {
    if (date >= dates[0]) sinceStart += day.net
    else if (!before || day.last_at >= before.last_at) before = day
  }
  let running = before ? before.balance_after : round2(balance - sinceStart)
  return dates.map((date) => {
    const day = byDate.get(date)
    if (day) running = day.balance_after
    return { date, balance: running, charged: round2(day?.charged ?? 0), refunded: round2(day?.refunded ?? 0) }
  })
}
