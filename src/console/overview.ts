import type { Deps } from '../domain/ports.js'
import type { Campaign, Connection, KeyRecord, Workspace } from '../domain/model.js'
import { pendingQueue } from './queue.js'
import { nowIn } from '../domain/workspace-time.js'
import { iso } from '../domain/durations.js'

/** A key as the console shows it: prefix only, never the value or its hash (KEY-02). */
export type ConsoleKey = Omit<KeyRecord, 'hash'>

export interface WorkspaceView extends Workspace {
  members: Array<{ user_id: string; name: string; email: string; role: string; status: string }>
  keys: ConsoleKey[]
  connections: Connection[]
  campaigns: Array<Pick<Campaign, 'id' | 'campaign_name' | 'status' | 'daily_budget' | 'currency' | 'channel_type' | 'connection_id'>>
  pending_reviews: number
  /** The workspace's own test clock (issue 19), or null when it reads the sandbox clock. */
  own_clock: { now: string; frozen: boolean; offset_ms: number } | null
}

export interface Overview {
  world: string
  seed: number
  now: string
  clock: { frozen: boolean; offset_ms: number }
  users: Array<{ id: string; name: string; email: string }>
  workspaces: WorkspaceView[]
  /** Keys that act in no single workspace (unpinned), listed by user. */
  unpinned_keys: ConsoleKey[]
}

/** Strips the hash: the console never receives anything a key could be recovered from. */
function consoleKey(record: KeyRecord): ConsoleKey {
  const { hash: _hash, ...rest } = record
  return rest
}

/** The aggregated world view of the console: every workspace with its people, keys, connections and campaigns. */
export function buildOverview(deps: Deps, clock: { now: string; frozen: boolean; offset_ms: number }): Overview {
  const { store } = deps
  const pending = pendingQueue(deps)
  const users = store.users.all().map(({ id, name, email }) => ({ id, name, email }))
  const userById = new Map(users.map((u) => [u.id, u]))
  const workspaces = store.workspaces.all().map((ws): WorkspaceView => ({
    ...ws,
    members: store.memberships.filter((m) => m.workspace_id === ws.id).map((m) => ({
      user_id: m.user_id,
      name: userById.get(m.user_id)?.name ?? m.user_id,
      email: userById.get(m.user_id)?.email ?? '',
      role: m.role,
      status: m.status,
    })),
    keys: store.keys.filter((k) => k.workspace_id === ws.id).map(consoleKey),
    connections: store.connections.filter((c) => c.workspace_id === ws.id),
    campaigns: store.campaigns.filter((c) => c.workspace_id === ws.id).map((c) => ({
      id: c.id, campaign_name: c.campaign_name, status: c.status, daily_budget: c.daily_budget,
      currency: c.currency, channel_type: c.channel_type, connection_id: c.connection_id,
    })),
    pending_reviews: pending.filter((a) => a.workspace_id === ws.id).length,
    own_clock: ws.clock ? { now: iso(nowIn(deps, ws.id)), frozen: ws.clock.frozen_at !== null, offset_ms: nowIn(deps, ws.id) - deps.clock.now() } : null,
  }))
  const meta = store.meta()
  return {
    world: meta.world,
    seed: meta.seed,
    now: clock.now,
    clock: { frozen: clock.frozen, offset_ms: clock.offset_ms },
    users,
    workspaces,
    unpinned_keys: store.keys.filter((k) => k.workspace_id === null).map(consoleKey),
  }
}
