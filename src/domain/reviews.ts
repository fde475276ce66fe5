import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { AuditEntry } from './model.js'
import type { PublicAudit } from './audit.js'
import { getAuditEntry, publicAudit } from './audit.js'
import { SandboxError } from './errors.js'
import { iso } from './durations.js'
import { executeWrite } from './writes.js'
import { redactValue } from '../support/redact.js'

/** Who reviews: a named person on the control plane (`key_id` null), or a key of another user of the workspace. */
export interface Reviewer {
  name: string
  key_id: string | null
  /** The reviewing key's user; looked up from `key_id` when omitted. */
  user_id?: string
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
 * (GATE-05); no key of the submitting user can approve it (GATE-04, `sameSubmitter`); an expired
 * review cannot be revived.
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
  if (request.reviewer.key_id !== null && sameSubmitter(deps, { ...request.reviewer, key_id: request.reviewer.key_id }, entry)) {
    throw new SandboxError('SELF_APPROVAL', { audit_id: entry.id })
  }
  if (entry.status !== 'pending_review') {
    const hint = entry.status === 'blocked' ? 'Approval cannot override a policy block.' : undefined
    throw new SandboxError('REVIEW_NOT_PENDING', { audit_id: entry.id, audit_status: entry.status, hint })
  }
  // A key value pasted into a reviewer name or comment is stored masked, like one in write args (KEY-02).
  const review = redactValue({ by: request.reviewer.name, action, at: iso(nowIn(deps, entry.workspace_id)), key_id: request.reviewer.key_id, ...(request.comment ? { comment: request.comment } : {}) })
  return deps.store.audit.update(entry.id, { status: action === 'approve' ? 'approved' : 'rejected', review })
}

/**
 * Whether the reviewing key speaks for whoever submitted the write (GATE-04, sandbox decision in
 * RULES.md "Safety gate"): the submitting key itself, its parent or children, or any other key of
 * the same user. An agent that mints a child key (or holds a sibling key) cannot approve its own
 * write; only a key of another user, or a named reviewer on the control plane, can.
 */
export function sameSubmitter(deps: Deps, reviewer: Reviewer & { key_id: string }, entry: AuditEntry): boolean {
  if (reviewer.key_id === entry.key_id) return true
  const reviewerUser = reviewer.user_id ?? deps.store.keys.get(reviewer.key_id)?.user_id
  if (reviewerUser === entry.user_id) return true
  // A parent or child handed to someone else is still the submitter's lineage.
  return lineage(deps, reviewer.key_id).includes(entry.key_id) || lineage(deps, entry.key_id).includes(reviewer.key_id)
}

// The key and its ancestors (bounded: a parent chain can never loop back in a sane store).
function lineage(deps: Deps, keyId: string): string[] {
  const chain: string[] = []
  let current = deps.store.keys.get(keyId)
  while (current && chain.length < 64) {
    chain.push(current.id)
    current = current.parent_key_id ? deps.store.keys.get(current.parent_key_id) : undefined
  }
  return chain
}
