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
  return { world: world.name, suffix, ids, workspaces: copy.workspaces.map((w) => w.id), keys }
}

// A fresh secret behind the world key's prefix (`svc_test_age…`), so what a scenario reads of a key (its prefix) stays the world's.
function copyValue(deps: Deps, value: string): string {
  const prefix = value.slice(0, 12)
  return `${prefix}${deps.ids.secret(Math.max(32 - (prefix.length - 'svc_test_'.length), 8))}`
}
