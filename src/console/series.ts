import type { Campaign, LedgerEntry } from '../domain/model.js'
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
export function accountSeries(input: { workspaceId: string; campaigns: readonly Campaign[]; ledger: readonly LedgerEntry[]; balance: number; now: number; days: number }): AccountSeries {
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
    credits: creditDays(input.ledger.filter((l) => l.workspace_id === input.workspaceId), dates, input.balance),
  }
}

function creditDays(ledger: readonly LedgerEntry[], dates: string[], balance: number): CreditDay[] {
  const sorted = [...ledger].sort((a, b) => a.at.localeCompare(b.at))
  // The balance before the window: the last row before it, or (no earlier row) today's balance minus every change since.
  const inWindow = sorted.filter((l) => dateOf(Date.parse(l.at)) >= dates[0])
  const before = sorted.filter((l) => dateOf(Date.parse(l.at)) < dates[0]).at(-1)
  let running = before ? before.balance_after : round2(balance - inWindow.reduce((a, l) => a + l.amount, 0))
  return dates.map((date) => {
    const rows = inWindow.filter((l) => dateOf(Date.parse(l.at)) === date)
    if (rows.length) running = rows[rows.length - 1].balance_after
    return {
      date,
      balance: running,
      charged: round2(rows.filter((l) => l.reason === 'charge').reduce((a, l) => a + Math.abs(l.amount), 0)),
      refunded: round2(rows.filter((l) => l.reason === 'refund').reduce((a, l) => a + Math.abs(l.amount), 0)),
    }
  })
}
