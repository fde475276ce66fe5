import { z } from 'zod'

/**
 * How a task picks a campaign. `id` and `name` tie the task to one world seed; `where` + `pick`
 * (and the older `worst: cpa`) describe the campaign by what it is, so the task holds for any
 * seed (`rehearse --trials k` gives each trial a new one). Resolved once, before the agent starts,
 * from the world's starting state and metrics (read with a separate key, never the agent's).
 */
export const PICKS = ['first', 'all', 'highest_cpa', 'lowest_cpa', 'highest_ctr', 'lowest_ctr', 'highest_budget', 'lowest_budget', 'highest_cost', 'lowest_cost'] as const

const range = z.strictObject({ min: z.number().nonnegative().optional(), max: z.number().nonnegative().optional() })

export const campaignSelector = z.union([
  z.strictObject({ id: z.string().min(1) }),
  z.strictObject({ name: z.string().min(1) }),
  z.strictObject({ worst: z.enum(['cpa']) }),
  z.strictObject({
    /** Filters on the starting state: status, daily budget range, and whether it has conversions. */
    where: z.strictObject({
      status: z.enum(['ENABLED', 'PAUSED', 'REMOVED']).optional(),
      daily_budget: range.optional(),
      has_conversions: z.boolean().optional(),
      /** Cost per conversion range (only campaigns with conversions match). */
      cpa: range.optional(),
    }).default({}),
    /** Which of the matching campaigns: ranked by a metric (ties by id), the first in list order, or `all` of them (a group). */
    pick: z.enum(PICKS).default('first'),
  }),
])

export type CampaignSelector = z.output<typeof campaignSelector>

/** A campaign row of `GET /v1/campaigns` (the metrics ranking reads). */
export interface CampaignRow {
  campaign_id: string
  status: string
  daily_budget: number
  conversions: number
  cpa: number
  ctr: number
  cost: number
}

/** True for a selector that names a group (`pick: all`): every matching campaign, not one. */
export function isGroup(selector: CampaignSelector): boolean {
  return 'pick' in selector && selector.pick === 'all'
}

/** The campaigns a selector names among `rows`: one (or none), or every match for `pick: all`. */
export function selectCampaigns(selector: CampaignSelector, rows: CampaignRow[], names: Map<string, string>): CampaignRow[] {
  if (isGroup(selector) && 'where' in selector) return rows.filter(matcher(selector.where))
  const one = selectCampaign(selector, rows, names)
  return one ? [one] : []
}

type Where = Extract<CampaignSelector, { where: unknown }>['where']

function matcher(where: Where): (r: CampaignRow) => boolean {
  const budget = where.daily_budget
  return (r) =>
    (!where.status || r.status === where.status)
    && (budget?.min === undefined || r.daily_budget >= budget.min)
    && (budget?.max === undefined || r.daily_budget <= budget.max)
    && (where.has_conversions === undefined || (r.conversions > 0) === where.has_conversions)
    && (where.cpa === undefined || (r.conversions > 0 && (where.cpa.min === undefined || r.cpa >= where.cpa.min) && (where.cpa.max === undefined || r.cpa <= where.cpa.max)))
}

/** The campaign a selector names among `rows` (the workspace's campaigns with metrics), or undefined. */
export function selectCampaign(selector: CampaignSelector, rows: CampaignRow[], names: Map<string, string>): CampaignRow | undefined {
  if ('id' in selector) return rows.find((r) => r.campaign_id === selector.id)
  if ('name' in selector) return rows.find((r) => names.get(r.campaign_id) === selector.name)
  const { where, pick } = 'worst' in selector ? { where: { status: 'ENABLED' as const, has_conversions: true }, pick: 'highest_cpa' as const } : selector
  const matching = rows.filter(matcher(where))
  if (pick === 'first' || pick === 'all') return matching[0]
  const [order, metric] = pick.split('_') as ['highest' | 'lowest', 'cpa' | 'ctr' | 'budget' | 'cost']
  const value = (r: CampaignRow) => (metric === 'budget' ? r.daily_budget : r[metric])
  // A cost per conversion means something only with conversions: CPA picks skip campaigns without.
  const ranked = matching.filter((r) => metric !== 'cpa' || r.conversions > 0)
    .sort((a, b) => (order === 'highest' ? value(b) - value(a) : value(a) - value(b)) || a.campaign_id.localeCompare(b.campaign_id))
  return ranked[0]
}

/**
 * A check's expected value: a number, `unchanged` (the starting value) or `{times: f}` (the starting
 * daily budget × f, rounded to cents). Lets a check hold whatever the seed made the starting state.
 */
export const budgetExpectation = z.union([
  z.number().nonnegative(),
  z.literal('unchanged'),
  /** `max`: no higher than this (a bulk raise under a cap); a budget already at or over it stays. */
  z.strictObject({ times: z.number().positive(), max: z.number().positive().optional() }),
])

export const statusExpectation = z.enum(['ENABLED', 'PAUSED', 'REMOVED', 'unchanged'])

export function expectedBudget(expect: z.output<typeof budgetExpectation>, start: number): number {
  if (expect === 'unchanged') return start
  if (typeof expect === 'number') return expect
  const scaled = Math.round(start * expect.times * 100) / 100
  return expect.max === undefined ? scaled : Math.min(scaled, Math.max(start, expect.max))
}

export function expectedStatus(expect: z.output<typeof statusExpectation>, start: string): string {
  return expect === 'unchanged' ? start : expect
}

/**
 * Fills `{target.id}`, `{target.name}`, `{target.daily_budget}` and `{target.daily_budget*1.2}`
 * (the starting budget times a factor, rounded to cents) in a goal from the resolved campaigns, and
 * for a group (`pick: all`) `{group.ids}` (comma-separated), `{group.names}` and `{group.count}`.
 */
export function fillGoal(goal: string, campaigns: Record<string, { id: string; campaign_name: string; daily_budget: number }>, groups: Record<string, string[]> = {}): string {
  const members = (name: string) => (groups[name] ?? []).map((key) => campaigns[key])
  const grouped = goal.replace(/\{([a-z][a-z0-9_]*)\.(ids|names|count)\}/g, (whole, name: string, field: string) => {
    if (!(name in groups)) return whole
    const list = members(name)
    return field === 'count' ? String(list.length) : list.map((c) => (field === 'ids' ? c.id : `"${c.campaign_name}"`)).join(', ')
  })
  return grouped.replace(/\{([a-z][a-z0-9_]*)\.(id|name|daily_budget)(?:\*(\d+(?:\.\d+)?))?\}/g, (whole, name: string, field: string, factor?: string) => {
    const c = campaigns[name]
    if (!c) return whole
    if (field === 'daily_budget') return String(factor ? expectedBudget({ times: Number(factor) }, c.daily_budget) : c.daily_budget)
    return factor ? whole : String(field === 'id' ? c.id : c.campaign_name)
  })
}
