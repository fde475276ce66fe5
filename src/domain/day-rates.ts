import type { Campaign } from './model.js'
import { between, hashSeed, prng } from './seeded.js'
import { timesOf } from './history-times.js'

/** Per-channel ranges for ctr, cpc and conversion rate: realistic Google Ads orders of magnitude. */
const PROFILES: Record<string, { ctr: [number, number]; cpc: [number, number]; cvr: [number, number] }> = {
  SEARCH: { ctr: [0.03, 0.08], cpc: [0.8, 3.5], cvr: [0.03, 0.09] },
  DISPLAY: { ctr: [0.003, 0.012], cpc: [0.2, 0.9], cvr: [0.005, 0.02] },
  PERFORMANCE_MAX: { ctr: [0.01, 0.03], cpc: [0.5, 1.8], cvr: [0.02, 0.06] },
  VIDEO: { ctr: [0.005, 0.015], cpc: [0.1, 0.5], cvr: [0.003, 0.01] },
}

/** A day's seeded draws for a campaign: the clicks a full enabled day gets, and the day's ctr, cpc and conversion rate. */
export interface DayRates {
  fullClicks: number
  ctr: number
  cpc: number
  cvr: number
}

type Kept = DayRates & { date: string; seed: number; channel: string; budget: number }

/**
 * A campaign's rates for one UTC day (REST-01): a function of its seed, channel, the date and the
 * budget in force at the day's start, and of nothing else, so the last ones are kept per campaign
 * id and checked against all four. A pause, an enable or a new row version keeps them; only a
 * new day or budget draws again (bench/ agent session: a list rebuilt the rows of every changed
 * campaign and drew each day's rates again for each new row object).
 */
export function dayRates(campaign: Campaign, date: string, start: number): DayRates {
  const budget = budgetOn(campaign, start)
  const last = kept.get(campaign.id)
  if (last && last.date === date && last.seed === campaign.seed && last.channel === campaign.channel_type && last.budget === budget) return last
  const next = prng(hashSeed(campaign.seed, date))
  const profile = PROFILES[campaign.channel_type] ?? PROFILES.SEARCH
  const pacing = between(next, 0.72, 1)
  const ctr = between(next, ...profile.ctr)
  const cpc = round(between(next, ...profile.cpc), 2)
  const cvr = between(next, ...profile.cvr)
  const rates: Kept = { date, seed: campaign.seed, channel: campaign.channel_type, budget, fullClicks: (budget * pacing) / cpc, ctr, cpc, cvr }
  // Bounded: one entry per campaign id, cleared past this many (many sandboxes in one process).
  if (kept.size >= KEPT_MAX) kept.clear()
  kept.set(campaign.id, rates)
  return rates
}

const KEPT_MAX = 10_000
const kept = new Map<string, Kept>()

/** The budget in force at the start of a day: the last change at or before midnight, else the first. */
function budgetOn(campaign: Campaign, dayStart: number): number {
  let budget = campaign.budget_history[0]?.daily_budget ?? campaign.daily_budget
  const times = timesOf(campaign.budget_history)
  campaign.budget_history.forEach((change, i) => {
    if (times[i] <= dayStart) budget = change.daily_budget
  })
  return budget
}

export function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}
