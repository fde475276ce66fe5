import type { Deps } from './ports.js'
import { checkBlockTools } from './tool-blocks.js'
import { CATALOG } from './catalog.js'
import type { Credits, Membership, Policy, RateLimits, Role, User, Workspace } from './model.js'
import type { CreatedKey } from './keys.js'
import { mintKey } from './keys.js'
import { SandboxError, notFound } from './errors.js'
import { iso } from './durations.js'
import { ALL_SCOPES } from './scopes.js'
import { defaultPolicy } from './policy.js'

/** What a signed-in browser session does; the sandbox exposes it on the control plane. */

export function defaultCredits(): Credits {
  return { balance: 1000, payment_method: true }
}

export function noRateLimits(): RateLimits {
  return { per_key: null, per_workspace: null }
}

/** Creates a user and, as signup does, an unpinned key with every scope, returned once (§2 rule 4). */
export function createUser(deps: Deps, input: { email: string; name: string; id?: string }): { user: User; signup_key: CreatedKey } {
  if (input.id && deps.store.users.get(input.id)) throw conflict(`user ${input.id} already exists`)
  if (deps.store.users.find((u) => u.email === input.email)) throw conflict(`a user with e-mail ${input.email} already exists`)
  const user: User = { id: input.id ?? deps.ids.next('usr'), email: input.email, name: input.name, created_at: now(deps) }
  deps.store.users.insert(user)
  const signup_key = mintKey(deps, { name: 'signup', scopes: [...ALL_SCOPES], user_id: user.id, workspace_id: null })
  return { user, signup_key }
}

export interface NewWorkspace {
  id?: string
  name: string
  owner_user_id: string
  parent_id?: string | null
  credits?: Partial<Credits>
  policy?: Partial<Policy>
  rate_limits?: Partial<RateLimits>
}

/**
 * Creates a workspace owned by a user (who becomes its owner member). A `parent_id` makes it a
 * client workspace managed from the parent (§1).
 */
export function createWorkspace(deps: Deps, input: NewWorkspace): Workspace {
  checkBlockTools(input.policy?.block_tools, CATALOG)
  if (input.id && deps.store.workspaces.get(input.id)) throw conflict(`workspace ${input.id} already exists`)
  if (!deps.store.users.get(input.owner_user_id)) throw notFound(`User ${input.owner_user_id}`)
  if (input.parent_id && !deps.store.workspaces.get(input.parent_id)) throw notFound(`Parent workspace ${input.parent_id}`)
  const workspace: Workspace = {
    id: input.id ?? deps.ids.next('ws'),
    name: input.name,
    owner_user_id: input.owner_user_id,
    parent_id: input.parent_id ?? null,
    created_at: now(deps),
    credits: { ...defaultCredits(), ...input.credits },
    policy: { ...defaultPolicy(), ...input.policy },
    rate_limits: { ...noRateLimits(), ...input.rate_limits },
  }
  deps.store.workspaces.insert(workspace)
  addMembership(deps, { user_id: input.owner_user_id, workspace_id: workspace.id, role: 'owner' })
  return workspace
}

/** Workspaces with their children's ids, since client workspaces are managed from a parent. */
export function listWorkspaces(deps: Deps): Array<Workspace & { children: string[]; members: number }> {
  const all = deps.store.workspaces.all()
  return all.map((w) => ({
    ...w,
    children: all.filter((c) => c.parent_id === w.id).map((c) => c.id),
    members: deps.store.memberships.filter((m) => m.workspace_id === w.id && m.status === 'active').length,
  }))
}

/** Adds (or re-activates) a membership. */
export function addMembership(deps: Deps, input: { user_id: string; workspace_id: string; role?: Role; id?: string }): Membership {
  if (!deps.store.users.get(input.user_id)) throw notFound(`User ${input.user_id}`)
  if (!deps.store.workspaces.get(input.workspace_id)) throw notFound(`Workspace ${input.workspace_id}`)
  const existing = deps.store.memberships.find((m) => m.user_id === input.user_id && m.workspace_id === input.workspace_id)
  if (existing?.status === 'active') throw conflict(`user ${input.user_id} is already a member of ${input.workspace_id}`)
  if (existing) return deps.store.memberships.update(existing.id, { status: 'active', removed_at: null, role: input.role ?? existing.role })
  const membership: Membership = {
    id: input.id ?? deps.ids.next('mem'),
    user_id: input.user_id,
    workspace_id: input.workspace_id,
    role: input.role ?? 'member',
    status: 'active',
    created_at: now(deps),
    removed_at: null,
  }
  return deps.store.memberships.insert(membership)
}

/** Ends a membership; the user's keys pinned there stop working at once (KEY-10). */
export function removeMembership(deps: Deps, id: string): Membership {
  const membership = deps.store.memberships.get(id)
  if (!membership || membership.status !== 'active') throw notFound(`Membership ${id}`)
  return deps.store.memberships.update(id, { status: 'removed', removed_at: now(deps) })
}

function now(deps: Deps): string {
  return iso(deps.clock.now())
}

function conflict(reason: string): SandboxError {
  return new SandboxError('CONFLICT', { reason })
}

