import type { Deps } from './ports.js'
import type { ConnectionSeeder, World } from './world.js'
import { seedWorld } from './world.js'
import type { WorldKey } from '../support/wire.js'

/** What `POST /_sandbox/world-copies` answers: the copy's ids by the world's ids, and its keys (values shown once). */
export interface WorldCopy {
  world: string
  /** Appended to every id the world names (`ws_acme` → `ws_acme_<suffix>`). */
  suffix: string
  /** World id → copy id, for users, workspaces and connections. */
  ids: Record<string, string>
  /** The copy's workspaces, in world order. */
  workspaces: string[]
  keys: WorldKey[]
}

/**
 * Seeds a second, independent instance of `world` beside what the store holds (issue 19: parallel
 * scenarios on one running sandbox). Users, workspaces and connections get the world's ids plus a
 * suffix, keys fresh random values behind the world's key prefixes; names, emails, scopes, policies
 * and campaign generation are the world's, so a scenario written for the world runs unchanged once
 * its ids are mapped.
 */
export function copyWorld(deps: Deps, world: World, onConnection?: ConnectionSeeder): WorldCopy {
  const suffix = deps.ids.next('c').slice(2).toLowerCase()
  const ids: Record<string, string> = {}
  const map = (id: string) => (ids[id] ??= `${id}_${suffix}`)
  const copy: World = {
    ...world,
    users: world.users.map((u) => ({ ...u, id: map(u.id) })),
    workspaces: world.workspaces.map((w) => ({ ...w, id: map(w.id), owner: map(w.owner), parent: w.parent ? map(w.parent) : w.parent })),
    memberships: world.memberships.map((m) => ({ ...m, user: map(m.user), workspace: map(m.workspace) })),
    keys: world.keys.map((k) => ({ ...k, user: map(k.user), workspace: k.workspace === null ? null : map(k.workspace), value: copyValue(deps, k.value) })),
    connections: world.connections.map((c) => ({ ...c, id: map(c.id), workspace: map(c.workspace) })),
  }
  const origin = Object.fromEntries(world.connections.map((c) => [map(c.id), c.id]))
  // Each copied connection gets the campaigns of the connection it copies (same names, statuses, history).
  const seeder: ConnectionSeeder | undefined = onConnection && ((d, id, settings, seed) => onConnection(d, id, { ...settings, seed_as: origin[id] }, seed))
  const keys = seedWorld(deps, copy, seeder)
  // Marked so `removeWorldCopy` removes exactly the copy's rows, whatever ids the world itself uses.
  for (const u of copy.users) deps.store.users.update(u.id, { copy: suffix })
  for (const w of copy.workspaces) deps.store.workspaces.update(w.id, { copy: suffix })
  return { world: world.name, suffix, ids, workspaces: copy.workspaces.map((w) => w.id), keys }
}

// A fresh secret behind the world key's prefix (`svc_test_age…`), so what a scenario reads of a key (its prefix) stays the world's.
function copyValue(deps: Deps, value: string): string {
  const prefix = value.slice(0, 12)
  return `${prefix}${deps.ids.secret(Math.max(32 - (prefix.length - 'svc_test_'.length), 8))}`
}

/** What `DELETE /_sandbox/world-copies/{suffix}` removed, by table. */
export type RemovedCopy = Record<'users' | 'workspaces' | 'memberships' | 'keys' | 'connections' | 'campaigns' | 'connectLinks' | 'connectionRequests' | 'rateBuckets', number>

/**
 * Removes a world copy's rows (issue 19): its users and workspaces and everything that belongs to
 * them, so copies made for parallel scenarios do not pile up on a long-lived sandbox. History
 * (audit, ledger, outbox) stays: it is what happened. `null` when no copy has that suffix.
 */
export function removeWorldCopy(deps: Deps, suffix: string): RemovedCopy | null {
  const s = deps.store
  const workspaces = new Set(s.workspaces.filter((w) => w.copy === suffix).map((w) => w.id))
  if (workspaces.size === 0) return null
  const users = new Set(s.users.filter((u) => u.copy === suffix).map((u) => u.id))
  const keys = s.keys.filter((k) => users.has(k.user_id) || (k.workspace_id !== null && workspaces.has(k.workspace_id)))
  const inCopy = (row: { workspace_id: string }) => workspaces.has(row.workspace_id)
  const buckets = new Set([...keys.map((k) => `key:${k.id}`), ...[...workspaces].map((w) => `ws:${w}`)])
  const removed = {
    memberships: drop(s.memberships, s.memberships.filter((m) => inCopy(m) || users.has(m.user_id))),
    keys: drop(s.keys, keys),
    campaigns: drop(s.campaigns, s.campaigns.filter(inCopy)),
    connectLinks: drop(s.connectLinks, s.connectLinks.filter(inCopy)),
    connectionRequests: drop(s.connectionRequests, s.connectionRequests.filter(inCopy)),
    connections: drop(s.connections, s.connections.filter(inCopy)),
    rateBuckets: drop(s.rateBuckets, s.rateBuckets.filter((b) => buckets.has(b.id))),
    workspaces: drop(s.workspaces, s.workspaces.filter((w) => workspaces.has(w.id))),
    users: drop(s.users, s.users.filter((u) => users.has(u.id))),
  }
  return removed
}

function drop(table: { remove(id: string): void }, rows: ReadonlyArray<{ id: string }>): number {
  for (const row of rows) table.remove(row.id)
  return rows.length
}
