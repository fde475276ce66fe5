import { hash } from 'node:crypto'
import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { KeyRecord, User, Workspace } from './model.js'
import { SandboxError } from './errors.js'
import { iso } from './durations.js'
import { requireScope } from './scopes.js'
import { extend } from '../support/objects.js'
import { parseInstant } from './history-times.js'

/** An authenticated key and its user; the workspace is not resolved yet. */
export interface Caller {
  key: KeyRecord
  user: User
}

/** A caller acting in one workspace, after KEY-10/KEY-11 resolution. */
export interface Actor extends Caller {
  workspace: Workspace
}

export const KEY_PATTERN = /^svc_test_[A-Za-z0-9]{32}$/

export function hashKey(value: string): string {
  // The one-shot form: a third of `createHash().update().digest()`'s cost, on every authenticated request.
  return hash('sha256', value, 'hex')
}

/** The 12-character prefix stored and shown instead of the value (KEY-02). */
export function keyPrefix(value: string): string {
  return value.slice(0, 12)
}

/** How `authenticate` reads a credential beyond its value. */
export interface AuthenticateOptions {
  /** Why no value was read (e.g. a key in a header this surface does not accept). */
  missing?: string
  /** `hashKey(value)` when the caller already has it (a connection that sends the same key again). */
  digest?: string
}

/**
 * Turns a credential value into a caller, or 401 `AUTHENTICATION_REQUIRED` when it is missing,
 * unknown, revoked (KEY-08) or expired (KEY-09) (AUTH-03).
 */
export function authenticate(deps: Deps, value: string | null, options: AuthenticateOptions = {}): Caller {
  if (!value) throw unauthenticated(options.missing ?? 'no API key was sent')
  const key = deps.store.keys.findBy('hash', options.digest ?? hashKey(value))
  // A live key (`svc_` without `test_`) can never work here: say so rather than "not valid" (issue 18).
  if (!key && value.startsWith('svc_') && !value.startsWith('svc_test_')) throw unauthenticated('this looks like a live key (svc_ without test_); only svc_test_ keys work against the sandbox')
  if (!key) throw unauthenticated('the API key is not valid')
  // Key expiry reads the clock of the workspace the key acts in (issue 19): pinned, else its user's one workspace.
  const now = nowIn(deps, keyWorkspaceId(deps, key))
  if (key.revoked_at) throw unauthenticated('the API key has been revoked')
  if (key.expires_at && parseInstant(key.expires_at) <= now) throw unauthenticated(`the API key expired at ${key.expires_at}`)
  const user = deps.store.users.get(key.user_id)
  if (!user) throw unauthenticated('the API key belongs to no user')
  return { key, user }
}

/**
 * The workspace a key acts in (KEY-10, KEY-11, KEY-12). A pinned key acts only in its workspace
 * while its user is an active member there; an unpinned key only when its user has exactly one
 * workspace. Nothing in the request can change the answer.
 */
export function resolveWorkspace(deps: Deps, caller: Caller): Actor {
  const { key, user } = caller
  const memberships = deps.store.memberships.filter((m) => m.user_id === user.id && m.status === 'active')
  if (key.workspace_id) {
    const workspace = deps.store.workspaces.get(key.workspace_id)
    const member = memberships.some((m) => m.workspace_id === key.workspace_id)
    if (!workspace || !member) throw new SandboxError('WORKSPACE_ACCESS_DENIED', { workspace_id: key.workspace_id })
    return extend(caller, { workspace })
  }
  const workspaces = memberships.map((m) => deps.store.workspaces.get(m.workspace_id)).filter(isDefined)
  if (workspaces.length !== 1) {
    throw new SandboxError('WORKSPACE_SCOPE_REQUIRED', { workspaces: workspaces.length })
  }
  return extend(caller, { workspace: workspaces[0] })
}

/**
 * The workspace id a key points at, without checking access: its pinned workspace, else its user's
 * one active workspace (KEY-11), else null. `resolveWorkspace` is the authorizing check.
 */
export function keyWorkspaceId(deps: Deps, key: Pick<KeyRecord, 'workspace_id' | 'user_id'>): string | null {
  if (key.workspace_id) return key.workspace_id
  const active = deps.store.memberships.filter((m) => m.user_id === key.user_id && m.status === 'active')
  return active.length === 1 ? active[0].workspace_id : null
}

/** Authorize: the scope first, then the workspace (house order). */
export function authorize(deps: Deps, caller: Caller, scope: string | null): Actor {
  if (scope) requireScope(caller.key.scopes, scope)
  return resolveWorkspace(deps, caller)
}

/**
 * Records `last_used_at` once a call succeeded. Refused calls leave it alone, so a refused request
 * changes nothing; it is not a durable change by itself (saved with the next write).
 */
export function markUsed(deps: Deps, caller: Caller): void {
  const last_used_at = iso(nowIn(deps, keyWorkspaceId(deps, caller.key)))
  // Requests within one millisecond leave the record as it is: no new row version to build.
  if (deps.store.keys.get(caller.key.id)?.last_used_at === last_used_at) return
  deps.store.keys.touch(caller.key.id, { last_used_at })
}

function unauthenticated(detail: string): SandboxError {
  return new SandboxError('AUTHENTICATION_REQUIRED', { detail })
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined
}
