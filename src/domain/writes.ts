import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { AuditEntry, LedgerEntry } from './model.js'
import type { Actor } from './access.js'
import type { PreparedCall } from './args.js'
import { prepareCall } from './args.js'
import { SandboxError, notFound } from './errors.js'
import { iso } from './durations.js'
import type { GateDecision } from './policy.js'
import { decideWrite } from './policy.js'
import { dedupeKeyOf, redactAudit } from './audit.js'
import { redactValue } from '../support/redact.js'
import { findPendingDuplicate } from './pending-writes.js'
import { chargeCredits, refundCredits } from './billing.js'
import { isLaunch } from './catalog.js'
import { executorFor } from './scripts/registry.js'
import type { ScriptContext } from './scripts/types.js'

/** A validated, authorized write (parse, validate, authenticate, authorize and rate limit are done). */
export interface WriteSubmission {
  actor: Actor
  call: PreparedCall
  surface: AuditEntry['surface']
}

/** What became of a write; held and blocked are values, not errors (GATE-01, GATE-02). */
export type WriteOutcome =
  | { kind: 'executed'; audit: AuditEntry; result: Record<string, unknown> }
  | { kind: 'failed'; audit: AuditEntry; error: SandboxError; refunded: number; result?: undefined }
  | { kind: 'held'; audit: AuditEntry; result?: undefined }
  | { kind: 'blocked'; audit: AuditEntry; result?: undefined }
  | { kind: 'dry_run'; audit: AuditEntry; decision: GateDecision; cost: number; balance: number; result?: undefined }

/**
 * The write path after authorization (REST-02, GATE-01..03, ERR-02): preflight (404 and other
 * state refusals, nothing recorded) → gate → audit → charge → execute. Every attempt that reaches
 * the gate is one audit entry: blocked, pending_review (charged only on approval), executed or failed.
 */
export function submitWrite(deps: Deps, submission: WriteSubmission): WriteOutcome {
  const { actor, call, surface } = submission
  const now = nowIn(deps, actor.workspace.id)
  const preflight = executorFor(call.entry.name).preflight?.(contextOf(deps, actor.workspace.id, actor.key.id, call)) ?? {}
  const decision = decideWrite(actor.workspace.policy, {
    script: call.entry.name, operation: call.entry.operation, resource: call.entry.resource, ...(preflight.budget ? { budget: preflight.budget } : {}),
  }, now)
  // Masked before anything is stored: a key value passed as an arg must not rest in the audit.
  const audit: AuditEntry = redactAudit({
    id: deps.ids.next('aud'),
    at: iso(now),
    workspace_id: actor.workspace.id,
    key_id: actor.key.id,
    key_prefix: actor.key.prefix,
    user_id: actor.user.id,
    surface,
    script: call.entry.name,
    args: [...call.args],
    platform: call.platform,
    operation: call.entry.operation,
    decision: decision.action,
    reason: decision.reason,
    rule: decision.rule,
    status: decision.action === 'block' ? 'blocked' : 'pending_review',
    credits: 0,
    before: null,
    after: null,
    result: null,
    expires_at: decision.action === 'hold' ? iso(now + actor.workspace.policy.review_ttl_hours * 3_600_000) : null,
    review: null,
    explanation: decision.explanation,
    // Only a held write is looked up by it (a retry while pending); others store none (bench/README.md).
    dedupe_key: decision.action === 'hold' ? dedupeKeyOf(actor.workspace.id, actor.key.id, call) : null,
  })
  // A dry run decides and prices the write, and records that it was asked; nothing is held or charged.
  if (call.dry_run) {
    const dry = deps.store.audit.insert({ ...audit, status: 'dry_run', expires_at: null })
    return { kind: 'dry_run', audit: dry, decision, cost: call.entry.credit_cost, balance: actor.workspace.credits.balance }
  }
  if (decision.action === 'block') return { kind: 'blocked', audit: deps.store.audit.insert(audit) }
  // Retrying an identical write while it is pending returns the same entry, not a second one.
  if (decision.action === 'hold') return { kind: 'held', audit: findPendingDuplicate(deps, audit.dedupe_key) ?? deps.store.audit.insert(audit) }
  try {
    return executeWrite(deps, audit, call)
  } catch (error) {
    // A 402 at charge time ran nothing; on this path it is still a recorded attempt.
    if (!(error instanceof SandboxError)) throw error
    const failed = save(deps, audit, { status: 'failed', result: { error: error.message, code: error.code } }, true)
    return { kind: 'failed', audit: failed, error, refunded: 0 }
  }
}

/**
 * Runs exactly `audit.args` once and records the outcome on the audit entry (inserted if new):
 * charge up front, execute, refund if it fails (`failed` outcome). A 402 (no payment method for a
 * launch, short balance; ERR-02) is thrown before anything is charged, run or recorded, so an
 * approval can leave the write reviewable. The approval flow calls this for approved held writes,
 * so they are charged only then. `checked` is the call `submitWrite` just validated and preflighted
 * in the same synchronous turn, so neither is repeated; approvals omit it.
 */
export function executeWrite(deps: Deps, audit: AuditEntry, checked?: PreparedCall): WriteOutcome {
  const call = checked ?? prepareCall({ script_name: audit.script, args: audit.args, platform: audit.platform })
  const executor = executorFor(call.entry.name)
  const ctx = contextOf(deps, audit.workspace_id, audit.key_id, call)
  const charge = chargeCall(ctx, audit.id)
  try {
    // State may have moved since a write was held; check again before running.
    if (!checked) executor.preflight?.(ctx)
    const run = executor.run(ctx)
    const credits = charge ? -charge.amount : 0
    const done = save(deps, audit, { status: 'executed', credits, before: run.before ?? null, after: run.after ?? null, result: run.result }, checked !== undefined)
    return { kind: 'executed', audit: done, result: run.result }
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error
    const refund = refundCredits(deps, charge)
    const failed = save(deps, audit, { status: 'failed', credits: 0, result: { error: error.message, code: error.code } }, checked !== undefined)
    return { kind: 'failed', audit: failed, error, refunded: refund ? refund.amount : 0 }
  }
}

/** The context an executor runs in; the workspace is re-read so a held write sees current state. */
export function contextOf(deps: Deps, workspaceId: string, keyId: string, call: PreparedCall): ScriptContext {
  const workspace = deps.store.workspaces.get(workspaceId)
  if (!workspace) throw notFound(`Workspace ${workspaceId}`)
  return { deps, workspace, key_id: keyId, call }
}

/** Charges the call's catalog cost to the context's workspace, naming its key (ERR-02); launches need a payment method. */
export function chargeCall(ctx: ScriptContext, auditId: string | null = null): LedgerEntry | null {
  const { entry } = ctx.call
  return chargeCredits(ctx.deps, {
    workspace_id: ctx.workspace.id, key_id: ctx.key_id, script: entry.name, amount: entry.credit_cost, operation: entry.operation, audit_id: auditId,
  }, isLaunch(entry))
}

/**
 * Records an outcome on its audit entry (KEY-02): what the run added (a result, a before/after
 * snapshot) may echo a key value the args carried, so it is masked; the entry itself is masked
 * again unless `submitWrite` built and masked it in this same call (`fresh`).
 */
function save(deps: Deps, entry: AuditEntry, outcome: Partial<AuditEntry>, fresh: boolean): AuditEntry {
  const audit: AuditEntry = { ...(fresh ? entry : redactAudit(entry)), ...redactValue(outcome) }
  if (deps.store.audit.get(audit.id)) return deps.store.audit.update(audit.id, audit)
  return deps.store.audit.insert(audit)
}
