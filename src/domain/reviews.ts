import type { Deps } from './ports.js'
import type { AuditEntry } from './model.js'
import type { PublicAudit } from './audit.js'
import { getAuditEntry, publicAudit } from './audit.js'
import { SandboxError } from './errors.js'
import { iso } from './durations.js'
import { executeWrite } from './writes.js'

/** Who reviews: a named person on the control plane (`key_id` null), or another key of the workspace. */
export interface Reviewer {
  name: string
  key_id: string | null
}

export interface ReviewRequest {
  auditId: string
  reviewer: Reviewer
  /** The reviewing key's workspace; another workspace's entry is 404 (KEY-12). Omitted on the control plane. */
  workspaceId?: string
  comment?: string
}

export interface ReviewOutcome {
  audit: PublicAudit
  result?: unknown
}

/**
 * Approves a held write (sandbox decision): it then runs once, with exactly `reviewed_args`, and is
 * charged then. The entry is claimed synchronously before anything runs, so of two racing
 * approvals one runs the write and the other gets 409. A blocked write can never be approved
 * (GATE-05); a key cannot approve its own write (GATE-04); an expired review cannot be revived.
 */
export async function approveWrite(deps: Deps, request: ReviewRequest): Promise<ReviewOutcome> {
  const claimed = claimReview(deps, request, 'approve')
  try {
    const outcome = await executeWrite(deps, claimed)
    const audit = deps.store.audit.get(claimed.id) ?? outcome.audit
    return { audit: publicAudit(audit), result: outcome.result }
  } catch (error) {
    // A refusal at run time (e.g. not enough credit) changes nothing: the write stays reviewable.
    const current = deps.store.audit.get(claimed.id)
    if (current?.status === 'approved') deps.store.audit.update(claimed.id, { status: 'pending_review', review: null })
    throw error
  }
}

/** Rejects a held write: nothing runs, nothing is charged (sandbox decision; GATE-04, GATE-05). */
export function rejectWrite(deps: Deps, request: ReviewRequest): ReviewOutcome {
  return { audit: publicAudit(claimReview(deps, request, 'reject')) }
}

function claimReview(deps: Deps, request: ReviewRequest, action: 'approve' | 'reject'): AuditEntry {
  const entry = getAuditEntry(deps, request.auditId, request.workspaceId)
  if (request.reviewer.key_id !== null && request.reviewer.key_id === entry.key_id) {
    throw new SandboxError('SELF_APPROVAL', { audit_id: entry.id })
  }
  if (entry.status !== 'pending_review') {
    const hint = entry.status === 'blocked' ? 'Approval cannot override a policy block.' : undefined
    throw new SandboxError('REVIEW_NOT_PENDING', { audit_id: entry.id, audit_status: entry.status, hint })
  }
  const review = { by: request.reviewer.name, action, at: iso(deps.clock.now()), key_id: request.reviewer.key_id, ...(request.comment ? { comment: request.comment } : {}) }
  return deps.store.audit.update(entry.id, { status: action === 'approve' ? 'approved' : 'rejected', review })
}
