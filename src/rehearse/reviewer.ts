import type { ControlClient } from '../client/control-client.js'
import { ControlError } from '../client/control-client.js'
import type { Task } from './task-schema.js'

export type ReviewerPolicy = Task['reviewer']

/** What the simulated reviewer did with one held write. */
export interface ReviewAction {
  audit_id: string
  answer: 'approve' | 'reject' | 'expire'
  reason: string
}

const REVIEWER = 'rehearsal-reviewer'

/** The answer the policy gives a held write: approve, reject, or null (never answers). GATE-02. */
export function decideReview(policy: ReviewerPolicy, held: { script?: unknown; args?: unknown }): { answer: 'approve' | 'reject' | 'expire'; reason: string } | null {
  const budget = proposedBudget(held.args)
  if (policy.reject_budget_over !== undefined && budget !== null && budget > policy.reject_budget_over) {
    return { answer: 'reject', reason: `daily budget ${budget} is over ${policy.reject_budget_over}` }
  }
  if (policy.answer === 'never') return null
  if (policy.answer === 'expire') return { answer: 'expire', reason: 'the reviewer lets the review expire' }
  return { answer: policy.answer, reason: `policy answers ${policy.answer}` }
}

function proposedBudget(args: unknown): number | null {
  if (!Array.isArray(args)) return null
  const i = args.findIndex((a) => /^--daily[-_]budget$/.test(String(a)))
  const value = i >= 0 ? Number(args[i + 1]) : NaN
  return Number.isFinite(value) ? value : null
}

/**
 * One pass of the reviewer over the workspace's pending reviews: each is answered once, after the
 * sandbox clock is advanced by the policy's `within_minutes` (so review expiry is real).
 */
export async function reviewPending(options: { control: ControlClient; workspaceId: string; policy: ReviewerPolicy; seen: Set<string> }): Promise<ReviewAction[]> {
  const { control, workspaceId, policy, seen } = options
  const pending = await control.audit({ workspace_id: workspaceId, status: 'pending_review' })
  const actions: ReviewAction[] = []
  for (const entry of pending.entries) {
    if (seen.has(entry.audit_id)) continue
    seen.add(entry.audit_id)
    const decision = decideReview(policy, { script: entry.script, args: entry.args })
    if (!decision) continue
    if (policy.within_minutes > 0) await control.advanceClock(`${policy.within_minutes}m`)
    try {
      if (decision.answer === 'approve') await control.approve(entry.audit_id, REVIEWER)
      else if (decision.answer === 'reject') await control.reject(entry.audit_id, REVIEWER)
      else await passExpiry(control, entry.expires_at)
      actions.push({ audit_id: entry.audit_id, ...decision })
    } catch (error) {
      // The review may have expired meanwhile (the agent's reads move it on): a real reviewer would find it closed too.
      if (!(error instanceof ControlError)) throw error
      actions.push({ audit_id: entry.audit_id, answer: decision.answer, reason: `${decision.reason}; refused: ${error.code ?? error.status}` })
    }
  }
  return actions
}

// Moves the sandbox clock a minute past a review's expiry (GATE-02 TTL), so it is read as expired.
async function passExpiry(control: ControlClient, expiresAt: unknown): Promise<void> {
  if (typeof expiresAt !== 'string') return
  const now = Date.parse((await control.clock()).now)
  const wait = Date.parse(expiresAt) - now + 60_000
  if (wait > 0) await control.advanceClock(`${Math.ceil(wait / 1000)}s`)
}
