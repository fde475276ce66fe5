import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { Bucket, RateLimits } from './model.js'
import type { Actor } from './access.js'
import { SandboxError, notFound } from './errors.js'
import { extend } from '../support/objects.js'

// Float refill can land a hair under a whole token; this tolerance keeps Retry-After exact.
const EPSILON = 1e-9

/** The buckets a request draws from: one for its key, one for its workspace (ERR-04). */
function bucketsOf(actor: Actor): Array<{ id: string; scope: 'key' | 'workspace'; config: Bucket }> {
  const { per_key, per_workspace } = actor.workspace.rate_limits
  return [
    ...(per_key ? [{ id: `key:${actor.key.id}`, scope: 'key' as const, config: per_key }] : []),
    ...(per_workspace ? [{ id: `ws:${actor.workspace.id}`, scope: 'workspace' as const, config: per_workspace }] : []),
  ]
}

/**
 * Takes one token from the key's and the workspace's buckets, refilled on the workspace's clock
 * (ERR-03, ERR-04). When either is empty nothing is taken and 429 RATE_LIMITED carries
 * `Retry-After` in whole seconds: the smallest wait after which a retry succeeds. A frozen clock
 * never refills.
 */
export function takeToken(deps: Deps, actor: Actor): void {
  // Both buckets refill on the clock of the workspace the call acts in (issue 19).
  const now = nowIn(deps, actor.workspace.id)
  const levels = bucketsOf(actor).map((b) => extend(b, { tokens: levelAt(deps, b.id, b.config, now) }))
  const short = levels.filter((b) => b.tokens < 1 - EPSILON)
  if (short.length > 0) {
    const waits = short.map((b) => Math.max(1, Math.ceil((1 - b.tokens) / b.config.refill_per_second - EPSILON)))
    const retry_after = Math.max(...waits)
    const scope = short[waits.indexOf(retry_after)].scope
    throw new SandboxError('RATE_LIMITED', { scope, retry_after }, { 'Retry-After': String(retry_after) })
  }
  for (const b of levels) save(deps, b.id, b.tokens - 1, now)
}

/** Control plane: replaces a workspace's limits and refills its buckets. */
export function setRateLimits(deps: Deps, workspaceId: string, patch: Partial<RateLimits>): RateLimits {
  const workspace = deps.store.workspaces.get(workspaceId)
  if (!workspace) throw notFound(`Workspace ${workspaceId}`)
  const rate_limits = { ...workspace.rate_limits, ...patch }
  deps.store.workspaces.update(workspaceId, { rate_limits })
  const keyIds = new Set(deps.store.keys.filter((k) => k.workspace_id === workspaceId || k.workspace_id === null).map((k) => `key:${k.id}`))
  for (const b of deps.store.rateBuckets.filter((b) => b.id === `ws:${workspaceId}` || keyIds.has(b.id))) deps.store.rateBuckets.remove(b.id)
  return rate_limits
}

function levelAt(deps: Deps, id: string, config: Bucket, now: number): number {
  const state = deps.store.rateBuckets.get(id)
  if (!state) return config.capacity
  const elapsed = Math.max(0, now - state.updated_ms) / 1000
  return Math.min(config.capacity, state.tokens + elapsed * config.refill_per_second)
}

// Bucket levels are not durable changes by themselves (like last_used_at): saved with the next write.
function save(deps: Deps, id: string, tokens: number, now: number): void {
  if (deps.store.rateBuckets.get(id)) deps.store.rateBuckets.touch(id, { tokens, updated_ms: now })
  else deps.store.rateBuckets.insert({ id, tokens, updated_ms: now })
}
