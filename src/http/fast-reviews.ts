import type { IncomingMessage, RequestListener } from 'node:http'
import type { AppContext } from './context.js'
import { FastExchange } from './fast-path.js'
import { plainJsonLength, readJsonObject } from './fast-body.js'
import { controlReviewBody } from './control/review-routes.js'
import { extend } from '../support/objects.js'

// Exactly as the bench and the console send it: lower case, no trailing slash, an id express would
// not decode (no `%`), no query. Any other spelling express still matches is left to express.
const REVIEW_PATH = /^\/_sandbox\/reviews\/([A-Za-z0-9_-]{1,128})\/(approve|reject)$/

/**
 * The base host's listener for a person's review on the control plane,
 * `POST /_sandbox/reviews/{audit_id}/approve|reject` `{reviewer, comment?}` (GATE-05), answered
 * without express by the route's own `controlReviewBody`, because express's per-request work was
 * a large share of the agent session's approvals (bench/README.md). Framing limits and the admin
 * token are checked before the body is read; a refused token, another content type, no length or
 * a body that is not a JSON object goes to `app`, with the body pushed back. Once the body is a
 * JSON object every outcome (approved, executed, 400, 404, 409) is the route's, rendered as
 * express renders it, and, like every control-plane exchange, not journaled.
 */
export function withFastReviews(ctx: AppContext, app: RequestListener): RequestListener {
  return (req, res) => {
    const target = reviewTarget(req)
    const length = target && ctx.adminGate.admits(req) ? plainJsonLength(ctx, req) : null
    if (!target || length === null) return app(req, res)
    const exchange = new FastExchange(ctx, { host: 'base', path: req.url ?? '', query: {}, req, res, journaled: false })
    readJsonObject(req, length, {
      take: (input) => answer(ctx, exchange, extend(target, { input })),
      fallBack: () => app(req, res),
    })
  }
}

function answer(ctx: AppContext, exchange: FastExchange, review: { action: 'approve' | 'reject'; auditId: string; input: object }): void {
  controlReviewBody(ctx.deps, review).then(
    (body) => exchange.replyAfterCommit({ body }),
    (error: unknown) => exchange.fail(error),
  )
}

function reviewTarget(req: IncomingMessage): { action: 'approve' | 'reject'; auditId: string } | null {
  if (req.method !== 'POST') return null
  const match = REVIEW_PATH.exec(req.url ?? '')
  return match ? { auditId: match[1], action: match[2] as 'approve' | 'reject' } : null
}
