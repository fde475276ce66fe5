import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { Campaign, CampaignStatus, Connection } from './model.js'
import { SandboxError, notFound } from './errors.js'
import { iso } from './durations.js'
import { DAY_MS } from './metrics.js'
import { hashSeed, seededFaker } from './seeded.js'
import { appendStatusChange } from './status-history.js'
import { appendEntry } from './history-times.js'

const CHANNELS = [
  { value: 'SEARCH', weight: 5, label: 'Search', bidding: ['MAXIMIZE_CONVERSIONS', 'TARGET_CPA', 'MAXIMIZE_CLICKS', 'MANUAL_CPC'] },
  { value: 'PERFORMANCE_MAX', weight: 2, label: 'PMax', bidding: ['MAXIMIZE_CONVERSIONS', 'MAXIMIZE_CONVERSION_VALUE', 'TARGET_ROAS'] },
  { value: 'DISPLAY', weight: 2, label: 'Display', bidding: ['MAXIMIZE_CONVERSIONS', 'TARGET_CPA', 'MANUAL_CPC'] },
  { value: 'VIDEO', weight: 1, label: 'YouTube', bidding: ['TARGET_CPM', 'MAXIMIZE_CONVERSIONS'] },
]
const THEMES = ['Brand', 'Generic', 'Competitor', 'Remarketing', 'Prospecting', 'Spring Sale', 'Holiday', 'Clearance', 'New Arrivals']
const GEOS = ['US', 'UK', 'CA', 'AU', 'DE', 'US East', 'US West', 'EU']

/** Default number of campaigns for a connection with no `campaigns.count`. */
export const DEFAULT_CAMPAIGN_COUNT = 6

/** How many campaigns a connection gets, and (a world copy) which connection's campaigns to reproduce. */
export interface CampaignSettings {
  count?: number
  seed_as?: string
  /**
   * Campaigns as a deployment showed them (`adops-sandbox record`): each keeps its id, name,
   * status and budget (and channel and bidding when given); the rest is generated as usual.
   */
  items?: CampaignItem[]
}

/** A campaign a world file spells out (`connections[].campaigns.items`). */
export interface CampaignItem {
  campaign_id: string
  campaign_name: string
  status: CampaignStatus
  daily_budget: number
  channel_type?: string
  bidding_strategy?: string
}

/**
 * Generates fake Google campaigns for a connection with faker, seeded by the world seed and the
 * connection id, so a world is reproducible (DESIGN "State"). The first campaign is ENABLED and
 * the second PAUSED; the rest are mostly ENABLED with some PAUSED and REMOVED. Campaigns started
 * 30-400 days before now, so they have metric history. Also used for connections made later.
 */
export function generateCampaigns(deps: Deps, connectionId: string, settings: CampaignSettings | undefined, seed: number): Campaign[] {
  const connection = deps.store.connections.get(connectionId)
  if (!connection) throw notFound(`Connection ${connectionId}`)
  // A world copy generates the campaigns of the connection it copies (`seed_as`): same names, statuses and history.
  const seedKey = settings?.seed_as ?? connectionId
  const faker = seededFaker(hashSeed(seed, seedKey))
  // Not a second faker: `seededFaker` reseeds one shared instance.
  let r = hashSeed(seed, seedKey, 'id-retry')
  const retry = () => String(1_000_000_000 + ((r = hashSeed(r)) % 8_999_999_999))
  const now = nowIn(deps, connection.workspace_id)
  const items = settings?.items ?? []
  const count = items.length || (settings?.count ?? DEFAULT_CAMPAIGN_COUNT)
  const created: Campaign[] = []
  for (let i = 0; i < count; i++) {
    const channel = faker.helpers.weightedArrayElement(CHANNELS.map((c) => ({ weight: c.weight, value: c })))
    const status: CampaignStatus = i === 0 ? 'ENABLED' : i === 1 ? 'PAUSED'
      : faker.helpers.weightedArrayElement([{ weight: 7, value: 'ENABLED' }, { weight: 2, value: 'PAUSED' }, { weight: 1, value: 'REMOVED' }])
    const startedAt = now - faker.number.int({ min: 30, max: 400 }) * DAY_MS - faker.number.int({ min: 0, max: DAY_MS - 1 })
    const changedAt = startedAt + Math.floor((now - startedAt) * faker.number.float({ min: 0.3, max: 0.9 }))
    const daily_budget = faker.number.int({ min: 2, max: 60 }) * 5
    const campaign: Campaign = {
      id: uniqueId(deps, faker.string.numeric({ length: 10, allowLeadingZeros: false }), retry),
      workspace_id: connection.workspace_id,
      connection_id: connection.id,
      platform: connection.platform,
      campaign_name: uniqueName(deps, connection, created, `${faker.commerce.department()} ${faker.helpers.arrayElement(THEMES)} - ${channel.label} - ${faker.helpers.arrayElement(GEOS)}`),
      channel_type: channel.value,
      status,
      daily_budget,
      currency: connection.currency,
      bidding_strategy: faker.helpers.arrayElement(channel.bidding),
      created_at: iso(startedAt),
      status_history: status === 'ENABLED'
        ? [{ at: iso(startedAt), status }]
        : [{ at: iso(startedAt), status: 'ENABLED' }, { at: iso(changedAt), status }],
      budget_history: [{ at: iso(startedAt), daily_budget }],
      seed: faker.number.int({ min: 1, max: 2 ** 31 - 1 }),
    }
    created.push(deps.store.campaigns.insert(items[i] ? asGiven(campaign, items[i], settings?.seed_as !== undefined) : campaign))
  }
  return created
}

/**
 * A generated campaign with what the world file spells out put in its place. A world copy keeps
 * its generated id: the original world holds the spelled-out one.
 */
function asGiven(campaign: Campaign, item: CampaignItem, copy: boolean): Campaign {
  const [started, changed] = campaign.status_history
  return {
    ...campaign,
    id: copy ? campaign.id : item.campaign_id,
    campaign_name: item.campaign_name,
    status: item.status,
    daily_budget: item.daily_budget,
    channel_type: item.channel_type ?? campaign.channel_type,
    bidding_strategy: item.bidding_strategy ?? campaign.bidding_strategy,
    status_history: item.status === 'ENABLED' ? [started] : [started, { at: (changed ?? started).at, status: item.status }],
    budget_history: [{ at: started.at, daily_budget: item.daily_budget }],
  }
}

/** A campaign of the workspace; another workspace's id answers 404 exactly like a missing one (KEY-12). */
export function findCampaign(deps: Deps, workspaceId: string, id: string): Campaign {
  const campaign = deps.store.campaigns.get(id)
  if (!campaign || campaign.workspace_id !== workspaceId) throw notFound(`Campaign ${id}`)
  return campaign
}

/** Moves a campaign to a new status; the same status again is a 409 (ALREADY_PAUSED for pause). The history stays bounded (`appendStatusChange`). */
export function changeStatus(deps: Deps, campaign: Campaign, status: CampaignStatus): Campaign {
  if (campaign.status === 'REMOVED') throw new SandboxError('CONFLICT', { reason: `Campaign ${campaign.id} is removed; it cannot change status.` })
  if (campaign.status === status) {
    if (status === 'PAUSED') throw new SandboxError('ALREADY_PAUSED', { campaign_id: campaign.id })
    throw new SandboxError('CONFLICT', { reason: `Campaign ${campaign.id} is already ${status}.` })
  }
  const at = iso(nowIn(deps, campaign.workspace_id))
  return deps.store.campaigns.update(campaign.id, { status, status_history: appendStatusChange(campaign.status_history, { at, status }) })
}

/**
 * Sets the daily budget; metrics use it from the next simulated day (UTC midnight). The history
 * keeps the last change of each day: an earlier change the same day (after midnight) never applied
 * to any day's metrics, and the history lives in the state document rewritten on every flush, so
 * it must not grow with every write (bench/: write cost vs history).
 */
export function changeBudget(deps: Deps, campaign: Campaign, dailyBudget: number): Campaign {
  if (campaign.status === 'REMOVED') throw new SandboxError('CONFLICT', { reason: `Campaign ${campaign.id} is removed.` })
  const at = iso(nowIn(deps, campaign.workspace_id))
  const midnight = `${at.slice(0, 10)}T00:00:00.000Z`
  const superseded = (h: { at: string }, i: number) => i > 0 && h.at.slice(0, 10) === at.slice(0, 10) && h.at > midnight
  return deps.store.campaigns.update(campaign.id, {
    daily_budget: dailyBudget,
    budget_history: appendEntry(campaign.budget_history, { at, daily_budget: dailyBudget }, (h, i) => !superseded(h, i)),
  })
}

/** A new campaign created by a script: PAUSED, as the real platform creates them. */
export function createCampaign(deps: Deps, input: { connection: Connection; name: string; channel_type: string; daily_budget: number; bidding_strategy: string }): Campaign {
  const at = iso(nowIn(deps, input.connection.workspace_id))
  const seed = hashSeed(deps.store.meta().seed, input.connection.id, deps.store.campaigns.size(), input.name)
  let n = seed
  const campaign: Campaign = {
    id: uniqueId(deps, String(1_000_000_000 + ((n = hashSeed(n)) % 8_999_999_999)), () => String(1_000_000_000 + ((n = hashSeed(n)) % 8_999_999_999))),
    workspace_id: input.connection.workspace_id,
    connection_id: input.connection.id,
    platform: input.connection.platform,
    campaign_name: input.name,
    channel_type: input.channel_type,
    status: 'PAUSED',
    daily_budget: input.daily_budget,
    currency: input.connection.currency,
    bidding_strategy: input.bidding_strategy,
    created_at: at,
    status_history: [{ at, status: 'PAUSED' }],
    budget_history: [{ at, daily_budget: input.daily_budget }],
    seed,
  }
  return deps.store.campaigns.insert(campaign)
}

/** The workspace's active Google connection, or 404 when it has none. */
export function googleConnection(deps: Deps, workspaceId: string, accountId?: string): Connection {
  const connection = deps.store.connections.find((c) => c.workspace_id === workspaceId && c.platform === 'google' &&
    c.status === 'active' && (accountId === undefined || c.account_id === accountId))
  if (!connection) throw notFound(accountId ? `Google Ads account ${accountId}` : 'A connected Google Ads account')
  return connection
}

// A taken id is replaced from `retry`, never from the generator that made it, so later fields stay the same.
function uniqueId(deps: Deps, first: string, retry: () => string): string {
  let id = first
  while (deps.store.campaigns.get(id)) id = retry()
  return id
}

function uniqueName(deps: Deps, connection: Connection, fresh: Campaign[], name: string): string {
  const taken = (n: string) => fresh.some((c) => c.campaign_name === n) ||
    deps.store.campaigns.find((c) => c.connection_id === connection.id && c.campaign_name === n) !== undefined
  let candidate = name
  for (let i = 2; taken(candidate); i++) candidate = `${name} ${i}`
  return candidate
}
