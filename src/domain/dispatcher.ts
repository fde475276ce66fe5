import type { Deps } from './ports.js'
import type { AuditEntry } from './model.js'
import type { Caller } from './access.js'
import { authorize } from './access.js'
import type { PreparedCall } from './args.js'
import { prepareCall } from './args.js'
import { SandboxError } from './errors.js'
import { takeToken } from './rate-limits.js'
import { refundCredits } from './billing.js'
import { executorFor } from './scripts/registry.js'
import type { WriteOutcome } from './writes.js'
import { chargeCall, contextOf, submitWrite } from './writes.js'
import { extend } from '../support/objects.js'

/** A dispatcher call from any surface (REST base or api host, MCP). */
export interface DispatchRequest {
  script_name: string
  args: readonly string[]
  platform?: string | null
  surface: AuditEntry['surface']
  /** A write is decided and priced, not run (`--dry-run` does the same). */
  dry_run?: boolean
}

export type ReadOutcome = { kind: 'read'; result: Record<string, unknown>; credits_used: number }
export type DispatchOutcome = ReadOutcome | WriteOutcome

/**
 * Surface-neutral dispatch (DISP-01, MCP-05) for a caller already authenticated (an MCP session):
 * validate the script and args, then run the prepared call. HTTP authenticates, resolves the script
 * and authorizes its scope before `prepareCall` (RULES.md Authentication), then `dispatchPrepared`.
 */
export function dispatch(deps: Deps, caller: Caller, request: DispatchRequest): DispatchOutcome {
  return dispatchPrepared(deps, caller, prepareCall(request), request.surface)
}

/**
 * Authorize (the entry's scope, then the workspace; AUTH-04, KEY-10..12) → rate limit (ERR-03,
 * ERR-04) → reads: charge, run, refund on failure; writes: the write path (`submitWrite`).
 * Refusals are thrown `SandboxError`s; held, blocked and failed writes are values.
 */
export function dispatchPrepared(deps: Deps, caller: Caller, call: PreparedCall, surface: AuditEntry['surface']): DispatchOutcome {
  const actor = authorize(deps, caller, call.entry.required_scope)
  if (call.entry.kind === 'write') {
    takeToken(deps, actor)
    return submitWrite(deps, { actor, call, surface })
  }
  const ctx = contextOf(deps, actor.workspace.id, actor.key.id, call)
  const executor = executorFor(call.entry.name)
  executor.preflight?.(ctx)
  // After the preflight: a read refused there (404, 400) takes no rate-limit token (ERR-05).
  takeToken(deps, actor)
  const charge = chargeCall(ctx)
  try {
    return { kind: 'read', result: executor.run(ctx).result, credits_used: charge ? -charge.amount : 0 }
  } catch (error) {
    refundCredits(deps, charge)
    throw error
  }
}

/**
 * The JSON body of an outcome, the same on every surface: results carry `sandbox: true` and
 * `credits_used`; held → `status: "pending_review"` with `reviewed_args`; blocked →
 * `status: "blocked"` with `code: "POLICY_BLOCKED"`; failed → the error body plus `audit_id`;
 * dry run → 200 `status: "dry_run"` with what the gate would do and the cost.
 */
export function outcomeBody(outcome: DispatchOutcome): Record<string, unknown> {
  switch (outcome.kind) {
    case 'read':
      return readBody(outcome)
    case 'executed':
      return extend(outcome.result as object, { audit_id: outcome.audit.id, credits_used: outcome.audit.credits, sandbox: true })
    case 'failed':
      return extend(outcome.error.toBody(), { audit_id: outcome.audit.id, credits_used: 0, refunded: outcome.refunded, sandbox: true })
    case 'held':
      return {
        status: 'pending_review', audit_id: outcome.audit.id, reviewed_args: outcome.audit.args, script_name: outcome.audit.script,
        platform: outcome.audit.platform, decision: { rule: outcome.audit.rule, reason: outcome.audit.reason, explanation: outcome.audit.explanation },
        expires_at: outcome.audit.expires_at, credits_used: 0, sandbox: true,
      }
    case 'blocked':
      return {
        status: 'blocked', error: new SandboxError('POLICY_BLOCKED', { reason: outcome.audit.reason }).message, code: 'POLICY_BLOCKED',
        audit_id: outcome.audit.id, rule: outcome.audit.rule, reason: outcome.audit.reason, explanation: outcome.audit.explanation,
        credits_used: 0, sandbox: true,
      }
    case 'dry_run':
      return {
        status: 'dry_run', dry_run: true, audit_id: outcome.audit.id, script_name: outcome.audit.script, platform: outcome.audit.platform,
        args: outcome.audit.args, would: outcome.decision.action, decision: outcome.decision,
        credits: { cost: outcome.cost, balance: outcome.balance, sufficient: outcome.balance >= outcome.cost }, credits_used: 0,
        next_step: 'Send the same call without --dry-run (or dry_run: true) to actually run it.', sandbox: true,
      }
  }
}

/** The HTTP status of an outcome: 200, 202 held, 403 blocked, the error's status when failed. */
export function outcomeStatus(outcome: DispatchOutcome): number {
  if (outcome.kind === 'held') return 202
  if (outcome.kind === 'blocked') return 403
  if (outcome.kind === 'failed') return outcome.error.status
  return 200
}

/**
 * A read's body. A kept, frozen result (an unchanged `list_campaigns`, `keepUnchanged`) answered
 * again at the same cost gets the very same frozen body, so its JSON text and bytes are reused
 * whole: a polled list costs no serialising while nothing in it changed.
 */
function readBody(outcome: ReadOutcome): Record<string, unknown> {
  const { result, credits_used } = outcome
  if (!Object.isFrozen(result)) return extend(result, { credits_used, sandbox: true })
  const kept = readBodies.get(result)
  if (kept?.credits_used === credits_used) return kept
  const body = Object.freeze(extend(result, { credits_used, sandbox: true }))
  readBodies.set(result, body)
  return body
}

const readBodies = new WeakMap<object, Readonly<Record<string, unknown>> & { credits_used: number }>()
