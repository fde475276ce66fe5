import type { Deps } from './ports.js'
import type { Credits, Policy, RateLimits, Role } from './model.js'
import { addMembership, createWorkspace } from './admin.js'
import { mintKey } from './keys.js'
import { iso } from './durations.js'
import { expandScopes } from './scopes.js'
import type { WorldKey } from '../support/wire.js'

/** A named seed world (fixtures/worlds/*.yaml), already validated. */
export interface World {
  name: string
  description: string
  seed: number
  users: Array<{ id: string; email: string; name: string }>
  workspaces: Array<{
    id: string
    name: string
    owner: string
    parent?: string | null
    credits?: Partial<Credits>
    policy?: Partial<Policy>
    rate_limits?: Partial<RateLimits>
  }>
  memberships: Array<{ user: string; workspace: string; role: Role }>
  keys: Array<{
    name: string
    user: string
    workspace: string | null
    scopes: string[]
    value: string
    expires_in_days?: number
    description?: string
  }>
  /** Header names that carry a key like X-Service-Key (issue 35; `serve --key-header`). */
  key_headers?: string[]
  connections: Array<{
    id: string
    workspace: string
    platform: string
    account_id: string
    account_name: string
    currency: string
    campaigns?: { count: number }
  }>
}

/** A world key as printed in the banner and returned by `createSandbox()`: documented, fixed values. */
export type { WorldKey }

/** Hook run for each seeded connection (campaign generation lives with the campaigns module). */
export type ConnectionSeeder = (deps: Deps, connectionId: string, settings: { count?: number; seed_as?: string } | undefined, seed: number) => void

/** Loads `world` into an empty store; returns its keys with their values. */
export function seedWorld(deps: Deps, world: World, onConnection?: ConnectionSeeder): WorldKey[] {
  const { store } = deps
  const at = iso(deps.clock.now())
  for (const u of world.users) store.users.insert({ ...u, created_at: at })
  for (const w of world.workspaces) {
    createWorkspace(deps, {
      id: w.id, name: w.name, owner_user_id: w.owner, parent_id: w.parent ?? null,
      credits: w.credits, policy: w.policy, rate_limits: w.rate_limits,
    })
  }
  for (const m of world.memberships) {
    const owner = store.memberships.find((x) => x.user_id === m.user && x.workspace_id === m.workspace)
    if (!owner) addMembership(deps, { user_id: m.user, workspace_id: m.workspace, role: m.role })
  }
  const keys = world.keys.map((k) => {
    const scopes = expandScopes(k.scopes)
    const created = mintKey(deps, {
      name: k.name, scopes, user_id: k.user, workspace_id: k.workspace, value: k.value, expires_in_days: k.expires_in_days,
    })
    return {
      name: k.name, value: k.value, prefix: created.prefix, scopes, user_id: k.user, workspace_id: k.workspace,
      description: k.description ?? '',
    }
  })
  for (const c of world.connections) {
    const { campaigns, workspace, ...rest } = c
    store.connections.insert({ ...rest, workspace_id: workspace, status: 'active', created_at: at, source: 'world' })
    onConnection?.(deps, c.id, campaigns, world.seed)
  }
  return keys
}
