import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { KeyRecord } from './model.js'
import type { Actor } from './access.js'
import { hashKey, keyPrefix, keyWorkspaceId } from './access.js'
import { SandboxError, invalidRequest, notFound } from './errors.js'
import { iso } from './durations.js'
import { isKnownScope } from './scopes.js'
import { DAY_MS } from './metrics.js'
import { parseInstant } from './history-times.js'

export const MAX_KEY_DAYS = 365

/** A key as every response shows it: no hash, no value (KEY-02, sandbox decision). */
export interface PublicKey {
  id: string
  name: string
  scopes: string[]
  workspace_id: string | null
  user_id: string
  created_at: string
  expires_at: string | null
  last_used_at: string | null
  prefix: string
}

/** The creation response: the only place a key value ever appears (KEY-02). */
export type CreatedKey = PublicKey & { key: string }

export interface NewKey {
  name: string
  scopes: string[]
  user_id: string
  workspace_id: string | null
  expires_in_days?: number
  parent_key_id?: string | null
  /** A fixed value (world files); otherwise a fresh `svc_test_` + 32 CSPRNG characters (KEY-01). */
  value?: string
}

export function publicKey(key: KeyRecord): PublicKey {
  const { id, name, scopes, workspace_id, user_id, created_at, expires_at, last_used_at, prefix } = key
  return { id, name, scopes, workspace_id, user_id, created_at, expires_at, last_used_at, prefix }
}

/** Stores a key as hash + prefix and returns its value once (KEY-01, KEY-02, KEY-04). */
export function mintKey(deps: Deps, input: NewKey): CreatedKey {
  validateKeyInput(input)
  const value = input.value ?? `svc_test_${deps.ids.secret(32)}`
  const now = nowIn(deps, keyWorkspaceId(deps, input))
  const record: KeyRecord = {
    id: deps.ids.next('key'),
    name: input.name,
    hash: hashKey(value),
    prefix: keyPrefix(value),
    scopes: [...new Set(input.scopes)],
    user_id: input.user_id,
    workspace_id: input.workspace_id,
    parent_key_id: input.parent_key_id ?? null,
    created_at: iso(now),
    expires_at: input.expires_in_days === undefined ? null : iso(now + input.expires_in_days * DAY_MS),
    last_used_at: null,
    revoked_at: null,
  }
  deps.store.keys.insert(record)
  return { ...publicKey(record), key: value }
}

/**
 * `POST /api/v1/keys` (KEY-03..06): a child key bound to the caller's user and workspace, holding
 * only scopes the parent holds. Refusals create nothing.
 */
export function issueChildKey(deps: Deps, actor: Actor, input: { name: string; scopes: string[]; expires_in_days?: number }): CreatedKey {
  validateKeyInput(input)
  const extra = input.scopes.filter((s) => !actor.key.scopes.includes(s))
  if (extra.length > 0) throw new SandboxError('SCOPE_MISSING', { scope: extra[0], scopes: extra, reason: 'child scopes must be held by the parent' })
  return mintKey(deps, { ...input, user_id: actor.user.id, workspace_id: actor.workspace.id, parent_key_id: actor.key.id })
}

/** `GET /api/v1/keys` (KEY-07): live (not revoked, not expired) keys acting in the caller's workspace, newest first. */
export function listWorkspaceKeys(deps: Deps, actor: Actor): PublicKey[] {
  const now = nowIn(deps, actor.workspace.id)
  return deps.store.keys
    .filter((k) => isLive(k, now) && actsIn(deps, k, actor.workspace.id))
    .reverse()
    .map(publicKey)
}

/**
 * `DELETE /api/v1/keys/{id}` (KEY-08): same user and workspace only, never itself. A key of another
 * workspace answers 404 exactly like a missing one (KEY-12).
 */
export function revokeKey(deps: Deps, actor: Actor, keyId: string): PublicKey & { revoked_at: string } {
  const key = deps.store.keys.get(keyId)
  if (!key || !isLive(key, nowIn(deps, actor.workspace.id)) || !actsIn(deps, key, actor.workspace.id)) throw notFound(`Key ${keyId}`)
  if (key.id === actor.key.id) throw new SandboxError('SELF_REVOCATION', { key_id: keyId })
  if (key.user_id !== actor.user.id) throw new SandboxError('KEY_NOT_OWNED', { key_id: keyId })
  const revoked = deps.store.keys.update(key.id, { revoked_at: iso(nowIn(deps, actor.workspace.id)) })
  return { ...publicKey(revoked), revoked_at: revoked.revoked_at as string }
}

/** Neither revoked nor expired: a key that can still authenticate (KEY-08, KEY-09). */
export function isLive(key: KeyRecord, now: number): boolean {
  return !key.revoked_at && (!key.expires_at || parseInstant(key.expires_at) > now)
}

function actsIn(deps: Deps, key: KeyRecord, workspaceId: string): boolean {
  return keyWorkspaceId(deps, key) === workspaceId
}

function validateKeyInput(input: { name: string; scopes: string[]; expires_in_days?: number }): void {
  const days = input.expires_in_days
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_KEY_DAYS)) {
    throw invalidRequest(`\`expires_in_days\` must be an integer from 1 to ${MAX_KEY_DAYS}; got ${days}`, 'expires_in_days')
  }
  const unknown = input.scopes.filter((s) => !isKnownScope(s))
  if (unknown.length > 0) throw invalidRequest(`unknown scope(s): ${unknown.join(', ')}`, 'scopes')
}
