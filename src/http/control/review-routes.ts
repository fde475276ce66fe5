import type { Request } from 'express'
import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Deps } from '../../domain/ports.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { getAuditEntry, listAudit, publicAudit } from '../../domain/audit.js'
import { auditQueryFields, reviewBodyOf } from '../routes/audit.js'

const auditQuery = z.strictObject({ ...auditQueryFields, workspace_id: z.string().optional(), key_prefix: z.string().optional() })
const reviewBody = z.strictObject({ reviewer: z.string().trim().min(1, 'name the reviewer'), comment: z.string().max(1000).optional() })

/**
 * The audit log and human review on the control plane: `GET /_sandbox/audit[/{id}]` and
 * `POST /_sandbox/reviews/{audit_id}/approve|reject` `{reviewer}` (sandbox decision; GATE-05).
 */
export function reviewControlRoutes(ctx: AppContext): Route[] {
  const { deps } = ctx
  const review = (action: 'approve' | 'reject') => async (req: Request) => ({ body: await controlReviewBody(deps, { action, auditId: param(req, 'id'), input: req.body ?? {} }) })
  return [
    { method: 'get', path: '/audit', handler: (req) => ({ body: listAudit(deps, parseInput(auditQuery, { ...req.query }, 'Query')) }) },
    { method: 'get', path: '/audit/:id', handler: (req) => ({ body: publicAudit(getAuditEntry(deps, param(req, 'id'))) }) },
    { method: 'post', path: '/reviews/:id/approve', handler: review('approve') },
    { method: 'post', path: '/reviews/:id/reject', handler: review('reject') },
  ]
}

/**
 * A person's review on the control plane: validates the body (`{reviewer, comment?}`), then approves
 * or rejects; the answer both the route and the fast path (`src/http/fast-reviews.ts`) send.
 */
export async function controlReviewBody(deps: Deps, review: { action: 'approve' | 'reject'; auditId: string; input: unknown }): Promise<Record<string, unknown>> {
  const body = parseInput(reviewBody, review.input)
  return reviewBodyOf(deps, review.action, { auditId: review.auditId, reviewer: { name: body.reviewer, key_id: null }, comment: body.comment })
}
