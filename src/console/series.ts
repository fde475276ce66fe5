import type { Campaign } from '../domain/model.js'
import { lastDays, metricsRange } from '../domain/metrics.js'

/** One sandbox day of a campaign for the console chart. */
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
  days: SeriesDay[]
}

/** Daily spend and clicks of a campaign for the `days` sandbox days ending today (REST-01 metrics). */
export function campaignSeries(campaign: Campaign, now: number, days: number): CampaignSeries {
  const window = lastDays(now, days)
  const rows = metricsRange(campaign, window.start_date, window.end_date, now)
  return {
    campaign_id: campaign.id,
    campaign_name: campaign.campaign_name,
    currency: campaign.currency,
    status: campaign.status,
    days: rows.map((r) => ({ date: r.date, cost: r.cost, clicks: r.clicks, impressions: r.impressions, conversions: r.conversions })),
  }
}
