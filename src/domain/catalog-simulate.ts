import type { Campaign } from './model.js'
import type { SnapshotEntry } from './catalog-snapshot.js'
import type { RunResult, ScriptContext, ScriptExecutor } from './scripts/types.js'
import { nowIn } from './workspace-time.js'
import { hashSeed, prng } from './seeded.js'
import { addDays, dateOf, rangeTotals, sumMetrics, withTotals } from './metrics.js'
import { ROW_WINDOW_DAYS, campaignRow } from './campaign-view.js'
import { sameRows } from './kept-values.js'
import type { CampaignRow } from './campaign-view.js'
import { iso } from './durations.js'
import { simulatedWrite } from './catalog-simulate-writes.js'

/** What every simulated result says about itself (issue 35 item 4; docs/catalogs.md). */
export const SIMULATED_NOTICE = 'Simulated by the sandbox: this catalog tool is not modelled; values are derived from the world and its seed.'

type Args = Record<string, unknown>

/**
 * The executor of every simulated snapshot tool. Reads answer deterministic, seed-stable results by
 * family: performance → rows for the workspace's campaigns over the requested window; list → items;
 * get → one item; other → an acknowledgement. Writes: `catalog-simulate-writes.ts`.
 */
export const SIMULATED_EXECUTOR: ScriptExecutor = {
  preflight: (ctx) => (ctx.call.entry.kind === 'write' ? simulatedWrite.preflight(ctx) : {}),
  run: (ctx) => (ctx.call.entry.kind === 'write' ? simulatedWrite.run(ctx) : { result: simulatedRead(ctx) }),
}

/**
 * A simulated read's result. The same call asked again while what it was built from is unchanged
 * (the same shared campaign rows, the same day) is the very same result, frozen from its second
 * ask on, so its JSON is reused whole as for `list_campaigns` and a polled simulated read costs no
 * more than a modelled one: the basis is checked before anything is built.
 */
function simulatedRead(ctx: ScriptContext): Record<string, unknown> {
  const entry = ctx.call.entry as SnapshotEntry
  const args = ctx.call.values as Args
  const now = nowIn(ctx.deps, ctx.workspace.id)
  const basis = basisOf(ctx, entry, args, now)
  const key = `${ctx.workspace.id}|${entry.name}|${ctx.call.platform}|${ctx.call.args.join('\u0000')}`
  const stamp = dateOf(now)
  let kept = keptReads.get(ctx.deps.store)
  if (!kept) keptReads.set(ctx.deps.store, (kept = new Map()))
  const last = basis ? kept.get(key) : undefined
  if (last && basis && last.stamp === stamp && sameRows(last.basis, basis)) {
    if (!Object.isFrozen(last.value)) freezeOneLevel(last.value)
    return last.value
  }
  const result = buildRead(ctx, entry, args, now, basis)
  if (basis) {
    if (kept.size >= 1000) kept.clear()
    kept.set(key, { stamp, basis, value: result })
  }
  return result
}

const keptReads = new WeakMap<object, Map<string, { stamp: string; basis: readonly object[]; value: Record<string, unknown> }>>()

/**
 * What a result depends on besides the key and the day, or null when it cannot be kept: the shared
 * 30-day campaign rows (performance over the standard window, campaign lists), the campaign row a
 * get names (rows are replaced on change), nothing for seeded items.
 */
function basisOf(ctx: ScriptContext, entry: SnapshotEntry, args: Args, now: number): readonly object[] | null {
  switch (entry.snapshot.family) {
    case 'performance': {
      const window = windowOf(args, now)
      const standard = window.days === ROW_WINDOW_DAYS && window.end_date === dateOf(now) && args.campaign_id == null
      return standard ? campaignsFor(ctx).map((c) => campaignRow(c, now)) : null
    }
    case 'list':
      return nounOf(entry) === 'campaigns' ? campaignsFor(ctx).map((c) => campaignRow(c, now)) : []
    case 'get': {
      const campaign = typeof args.campaign_id === 'string' ? ctx.deps.store.campaigns.get(args.campaign_id) : undefined
      return campaign && campaign.workspace_id === ctx.workspace.id ? [campaign] : []
    }
    default:
      // Stamped with the instant asked: never the same twice.
      return null
  }
}

function buildRead(ctx: ScriptContext, entry: SnapshotEntry, args: Args, now: number, basis: readonly object[] | null): Record<string, unknown> {
  const head = { tool: entry.name, simulated: true as const, platform: ctx.call.platform || null, notice: SIMULATED_NOTICE }
  switch (entry.snapshot.family) {
    case 'performance':
      return Object.assign(head, performance(ctx, args, now, basis as CampaignRow[] | null))
    case 'list':
      return Object.assign(head, listing(ctx, entry, args, now))
    case 'get':
      return Object.assign(head, { item: itemOf(ctx, entry, args, 0, now) })
    default:
      return Object.assign(head, { status: 'ok', checked_at: iso(now), arguments: present(args) })
  }
}

function freezeOneLevel(value: Record<string, unknown>): void {
  for (const item of Object.values(value)) if (item !== null && typeof item === 'object') Object.freeze(item)
  Object.freeze(value)
}

/** The window a read asks for: start/end dates, else a `date_range` preset, else `days` (default 30). */
export function windowOf(args: Args, now: number): { start_date: string; end_date: string; days: number } {
  const today = dateOf(now)
  const text = (k: string) => (typeof args[k] === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(args[k] as string) ? (args[k] as string) : null)
  let end = text('end_date') ?? today
  let start = text('start_date')
  const preset = typeof args.date_range === 'string' ? args.date_range.toLowerCase() : null
  if (!start && preset) [start, end] = presetWindow(preset, today) ?? [null, end]
  if (!start) start = addDays(end, -((typeof args.days === 'number' && args.days > 0 ? Math.min(args.days, 1095) : 30) - 1))
  if (start > end) [start, end] = [end, start]
  const days = Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1
  return { start_date: start, end_date: end, days }
}

function presetWindow(preset: string, today: string): [string, string] | null {
  if (preset === 'today') return [today, today]
  if (preset === 'yesterday') return [addDays(today, -1), addDays(today, -1)]
  if (preset === 'this_month') return [`${today.slice(0, 8)}01`, today]
  if (preset === 'last_month') {
    const first = `${today.slice(0, 8)}01`
    const end = addDays(first, -1)
    return [`${end.slice(0, 8)}01`, end]
  }
  const match = /^last_(\d+)_(day|week|month|year)s?$/.exec(preset)
  if (!match) return null
  const per = { day: 1, week: 7, month: 30, year: 365 }[match[2] as 'day']
  return [addDays(today, -(Math.min(Number(match[1]) * per, 1095) - 1)), today]
}

function performance(ctx: ScriptContext, args: Args, now: number, standardRows: CampaignRow[] | null): Record<string, unknown> {
  const window = windowOf(args, now)
  const only = typeof args.campaign_id === 'string' ? args.campaign_id : null
  const campaigns = campaignsFor(ctx).filter((c) => !only || c.id === only)
  // The sandbox's own 30-day rows ending today are shared per campaign version: reused, not rebuilt.
  const rows = standardRows ?? campaigns.map((c) => withTotals({
    campaign_id: c.id, campaign_name: c.campaign_name, status: c.status, daily_budget: c.daily_budget, currency: c.currency,
    bidding_strategy: c.bidding_strategy, channel_type: c.channel_type,
  }, rangeTotals(c, window.start_date, window.end_date, now)))
  return { date_range: window, level: typeof args.level === 'string' ? args.level : 'campaign', summary: sumMetrics(rows), rows, total_rows: rows.length, truncated: false, warnings: [] }
}

function listing(ctx: ScriptContext, entry: SnapshotEntry, args: Args, now: number): Record<string, unknown> {
  const limit = typeof args.limit === 'number' && args.limit > 0 ? Math.min(args.limit, 100) : 50
  const offset = typeof args.offset === 'number' && args.offset > 0 ? args.offset : typeof args.page === 'number' && args.page > 1 ? (args.page - 1) * limit : 0
  let all: Array<Record<string, unknown>>
  if (nounOf(entry) === 'campaigns') {
    const status = typeof args.status === 'string' ? args.status.toUpperCase() : null
    all = campaignsFor(ctx).filter((c) => !status || c.status === status).map((c) => campaignRow(c, now) as unknown as Record<string, unknown>)
  } else {
    const total = 3 + (hashSeed(ctx.deps.store.meta().seed, ctx.workspace.id, entry.name) % 10)
    all = Array.from({ length: total }, (_, i) => itemOf(ctx, entry, {}, i, now))
  }
  const items = all.slice(offset, offset + limit)
  return { items, count: items.length, total: all.length, offset, limit, has_more: offset + limit < all.length }
}

/** One seeded item of a list or get tool; the id argument a call names is echoed. */
function itemOf(ctx: ScriptContext, entry: SnapshotEntry, args: Args, index: number, now: number): Record<string, unknown> {
  const idArg = Object.keys(args).find((k) => k.endsWith('_id') && typeof args[k] === 'string')
  const campaign = idArg === 'campaign_id' ? campaignsFor(ctx).find((c) => c.id === args.campaign_id) : undefined
  if (campaign) return { campaign_id: campaign.id, campaign_name: campaign.campaign_name, status: campaign.status, daily_budget: campaign.daily_budget, currency: campaign.currency }
  const seed = hashSeed(ctx.deps.store.meta().seed, ctx.workspace.id, entry.name, idArg ? String(args[idArg]) : index)
  const next = prng(seed)
  const noun = nounOf(entry).replace(/s$/, '') || 'item'
  return {
    id: idArg ? args[idArg] : `${noun}_${seed.toString(36)}`,
    name: `${noun.replace(/_/g, ' ')} ${index + 1}`,
    status: next() < 0.8 ? 'ACTIVE' : 'PAUSED',
    created_at: `${addDays(dateOf(now), -Math.floor(next() * 365))}T00:00:00.000Z`,
    value: Math.round(next() * 10_000) / 100,
  }
}

/** `meta_list_ad_groups` → `ad_groups`: the words after `list`, without platform or round suffixes. */
function nounOf(entry: SnapshotEntry): string {
  const words = entry.name.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && w !== entry.snapshot.platform && !/^r\d+$/.test(w))
  const at = Math.max(words.indexOf('list'), words.indexOf('get'), words.indexOf('search'))
  const rest = at >= 0 ? words.slice(at + 1) : words.slice(-1)
  return rest.join('_')
}

/**
 * The campaigns a read reports on: the workspace's own (of the tool's platform when it names one);
 * for a platform the world has no campaigns on, three seeded ones that exist only in results.
 */
function campaignsFor(ctx: ScriptContext): Campaign[] {
  const platform = ctx.call.platform || null
  const own = ctx.deps.store.campaigns.filter((c) => c.workspace_id === ctx.workspace.id && (!platform || c.platform === platform))
  if (own.length > 0 || !platform) return own
  return seededCampaigns(ctx.deps.store.meta().seed, ctx.workspace.id, platform, ctx.workspace.created_at)
}

const seeded = new Map<string, Campaign[]>()

function seededCampaigns(worldSeed: number, workspaceId: string, platform: string, createdAt: string): Campaign[] {
  const key = `${worldSeed}:${workspaceId}:${platform}:${createdAt}`
  let campaigns = seeded.get(key)
  if (!campaigns) {
    campaigns = [0, 1, 2].map((i) => {
      const seed = hashSeed(worldSeed, workspaceId, platform, i)
      const daily_budget = 20 + (seed % 180)
      const status = i === 2 ? 'PAUSED' : 'ENABLED'
      return Object.freeze({
        id: `sim-${platform}-${(seed % 1_000_000).toString().padStart(6, '0')}`, workspace_id: workspaceId, connection_id: '', platform,
        campaign_name: `${platform} campaign ${i + 1}`, channel_type: 'SIMULATED', status, daily_budget, currency: 'USD', bidding_strategy: 'SIMULATED',
        created_at: createdAt, status_history: [{ at: createdAt, status }], budget_history: [{ at: createdAt, daily_budget }], seed,
      }) as Campaign
    })
    // Bounded: one entry per world seed, workspace and platform asked about.
    if (seeded.size >= 1000) seeded.clear()
    seeded.set(key, campaigns)
  }
  return campaigns
}

/** Arguments without nulls (FastMCP fills every optional with null). */
export function present(args: Args): Args {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined))
}

export type { RunResult }
