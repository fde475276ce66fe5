import type { Request } from 'express'
import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import type { Actor } from '../../domain/access.js'
import { param, parseInput } from '../reply.js'
import { actorOf } from '../auth.js'
import { getAuditEntry, listAudit, publicAudit } from '../../domain/audit.js'
import type { Deps } from '../../domain/ports.js'
import type { ReviewRequest } from '../../domain/reviews.js'
import { approveWrite, rejectWrite } from '../../domain/reviews.js'
import { notFound } from '../../domain/errors.js'

const STATUSES = ['executed', 'failed', 'pending_review', 'approved', 'rejected', 'expired', 'blocked', 'dry_run'] as const

/** Query filters shared by the public and the control-plane audit lists. */
export const auditQueryFields = {
  status: z.enum(STATUSES).optional(),
  decision: z.enum(['run', 'hold', 'block']).optional(),
  script: z.string().min(1).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  cursor: z.string().regex(/^s[0-9a-z]{1,12}$/, 'must be a next_cursor of an earlier page').optional(),
}
const auditQuery = z.object(auditQueryFields)
const reviewBody = z.object({ comment: z.string().max(1000).optional() })

/**
 * The audit and review extension on the base host (GATE-01, GATE-04, GATE-05). Any key acting in a
 * workspace reads the entries it submitted; `workspace:read` reads them all. Approving or
 * rejecting needs `workspace:write` on a key of another user than the submitter's (GATE-04, `sameSubmitter`).
 */
export function auditRoutes(ctx: AppContext): Route[] {
  const { deps } = ctx
  const review = (action: 'approve' | 'reject') => async (req: Request) => {
    const actor = actorOf(ctx, req, 'resource', 'workspace:write')
    const body = parseInput(reviewBody, req.body ?? {})
    const request = { auditId: param(req, 'id'), workspaceId: actor.workspace.id, reviewer: { name: actor.user.name, key_id: actor.key.id }, comment: body.comment }
    return { body: { ...(await reviewBodyOf(deps, action, request)), sandbox: true } }
  }
  return [
    {
      method: 'get',
      path: '/api/v1/audit',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', null)
        const query = parseInput(auditQuery, { ...req.query }, 'Query')
        const page = listAudit(deps, { ...query, workspace_id: actor.workspace.id, key_id: readsAll(actor) ? undefined : actor.key.id })
        return { body: { ...page, workspace_id: actor.workspace.id, sandbox: true } }
      },
    },
    {
      method: 'get',
      path: '/api/v1/audit/:id',
      handler: (req) => ({ body: auditEntryBody(deps, actorOf(ctx, req, 'resource', AUDIT_READ_SCOPE), param(req, 'id')) }),
    },
    { method: 'post', path: '/api/v1/audit/:id/approve', handler: review('approve') },
    { method: 'post', path: '/api/v1/audit/:id/reject', handler: review('reject') },
  ]
}

/** The scope `GET /api/v1/audit/{id}` asks for: none, any key acting in the workspace reads its own entries. */
export const AUDIT_READ_SCOPE = null

/** `GET /api/v1/audit/{id}`'s answer for an authorized actor; the route's and the fast path's (`src/http/fast-audit.ts`). */
export function auditEntryBody(deps: Deps, actor: Actor, id: string): Record<string, unknown> {
  const entry = getAuditEntry(deps, id, actor.workspace.id)
  // Without workspace:read a key sees only its own writes; others look like missing ids.
  if (!readsAll(actor) && entry.key_id !== actor.key.id) throw notFound(`Audit entry ${entry.id}`)
  // Added in place to the fresh copy `publicAudit` makes: copying it again would cost what that copy saves.
  const body: Record<string, unknown> = publicAudit(entry)
  body.sandbox = true
  return body
}

/** Approves or rejects a held write (GATE-05); the body both review routes answer with. */
export async function reviewBodyOf(deps: Deps, action: 'approve' | 'reject', request: ReviewRequest): Promise<Record<string, unknown>> {
  const outcome = action === 'approve' ? await approveWrite(deps, request) : rejectWrite(deps, request)
  // Built, then added to: a literal with a conditional spread takes V8's slow object path (metrics.ts `withTotals`).
  const body: Record<string, unknown> = { status: outcome.audit.status, audit_id: outcome.audit.id, audit: outcome.audit }
  if (outcome.result !== undefined) body.result = outcome.result
  return body
}

function readsAll(actor: Actor): boolean {
  return actor.key.scopes.includes('workspace:read')
}
