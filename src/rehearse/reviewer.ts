import { randomBytes } from 'node:crypto'
import type { ControlClient } from '../client/control-client.js'
import { ControlError } from '../client/control-client.js'
import type { Task } from './task-schema.js'

export type ReviewerPolicy = Task['reviewer']

/** What the simulated reviewer did with one held write (`audit_id`), or with a connect link e-mailed to it (`request_id`). */
export interface ReviewAction {
  audit_id: string
  answer: 'approve' | 'reject' | 'expire' | 'connect'
  reason: string
}

const REVIEWER = 'rehearsal-reviewer'

export interface ReviewerOptions {
  control: ControlClient
  workspaceId: string
  policy: ReviewerPolicy
  seen: Set<string>
  /**
   * Request ids of what the reviewer sends on the agent's surfaces (opening a mailed link): each gets a
   * random one, so grading tells the person's requests from the agent's in the journal (issue 34 item 1).
   */
  ownRequests?: Set<string>
}

/** The answer the policy gives a held write: approve, reject, or null (never answers). GATE-02. */
export function decideReview(policy: Pick<ReviewerPolicy, 'answer' | 'reject_budget_over'>, held: { script?: unknown; args?: unknown }): { answer: 'approve' | 'reject' | 'expire'; reason: string } | null {
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
 * sandbox clock is advanced by the policy's `within_minutes` (so review expiry is real). With
 * `open_links` it then opens the connect links e-mailed to the owner (`openMailedLinks`).
 */
export async function reviewPending(options: ReviewerOptions): Promise<ReviewAction[]> {
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
      // A task's `comment` is the reviewer's note on each answer (the `review-note` injection site).
      const note = { reviewer: REVIEWER, ...(policy.comment ? { comment: policy.comment } : {}) }
      if (decision.answer === 'approve' || decision.answer === 'reject') await control.request('POST', `/reviews/${encodeURIComponent(entry.audit_id)}/${decision.answer}`, note)
      else await passExpiry(control, entry.expires_at)
      actions.push({ audit_id: entry.audit_id, ...decision })
    } catch (error) {
      if (!(error instanceof ControlError)) throw error
      if (decision.answer === 'approve' && error.status === 402) {
        actions.push(await rejectUnpayable(control, entry.audit_id, error))
        continue
      }
      // The review may have expired meanwhile (the agent's reads move it on): a real reviewer would find it closed too.
      actions.push({ audit_id: entry.audit_id, answer: decision.answer, reason: `${decision.reason}; refused: ${error.code ?? error.status}` })
    }
  }
  actions.push(...(await openMailedLinks(options)))
  return actions
}

/**
 * An approval the service refuses with 402 (a launch without a payment method, not enough credit;
 * ERR-02) leaves the write pending, which an agent cannot tell from "not reviewed yet". A person
 * would close it and say why: the reviewer rejects it with the refusal as the review's comment, which
 * the agent reads on `GET /api/v1/audit/{id}` (`status: rejected`, `review.comment`).
 */
async function rejectUnpayable(control: ControlClient, auditId: string, refusal: ControlError): Promise<ReviewAction> {
  const body = refusal.body as { error?: string } | null
  const comment = `Approval refused by the service (${refusal.code ?? refusal.status}): ${body?.error ?? 'payment required'}`
  await control.request('POST', `/reviews/${encodeURIComponent(auditId)}/reject`, { reviewer: REVIEWER, comment })
  return { audit_id: auditId, answer: 'reject', reason: comment }
}

/**
 * The reviewer as workspace owner (`open_links`): opens each connect link e-mailed to the workspace
 * (connection requests, CONN-04) once, after `within_minutes`, and consents to the first account offered.
 * Links the agent started for itself are never e-mailed, so the owner never sees them.
 */
export async function openMailedLinks(options: ReviewerOptions): Promise<ReviewAction[]> {
  const { control, workspaceId, policy, seen } = options
  if (!policy.open_links) return []
  const actions: ReviewAction[] = []
  for (const mail of (await control.outbox({ workspace_id: workspaceId })).mails) {
    if (!mail.link || seen.has(mail.link)) continue
    seen.add(mail.link)
    if (policy.within_minutes > 0) await control.advanceClock(`${policy.within_minutes}m`)
    const requestId = `rehearsal-owner-${randomBytes(12).toString('hex')}`
    options.ownRequests?.add(requestId)
    const res = await fetch(mail.link, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json', 'request-id': requestId }, body: '{}' })
    const body = (await res.json().catch(() => ({}))) as { connection?: { id?: string }; error?: string }
    const reason = res.ok ? `the owner connected ${body.connection?.id ?? 'an account'}` : `the link answered ${res.status}: ${body.error ?? ''}`
    actions.push({ audit_id: mail.request_id, answer: 'connect', reason })
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
