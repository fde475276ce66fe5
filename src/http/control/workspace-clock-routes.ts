import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { invalidRequest } from '../../domain/errors.js'
import { iso, parseDuration } from '../../domain/durations.js'
import { workspaceOr404 } from './limits-routes.js'
import { expireOverdueReviews } from '../../domain/audit.js'
import { clockBody, LATEST } from './clock-journal-routes.js'

/**
 * Per-workspace test clocks (issue 19): `GET|POST|DELETE /_sandbox/workspaces/{id}/clock`. The body
 * and errors of POST are those of `POST /_sandbox/clock`; DELETE releases the workspace back to the
 * sandbox clock. Every time rule about the workspace reads its clock (`Deps.clockFor`).
 */
export function workspaceClockRoutes(ctx: AppContext): Route[] {
  const { store } = ctx.deps
  const clocks = ctx.workspaceClocks
  const view = (id: string) => {
    const v = clocks.view(id)
    return { workspace_id: v.workspace_id, own: v.own, now: iso(v.now), frozen: v.frozen, offset_ms: v.offset_ms }
  }
  return [
    { method: 'get', path: '/workspaces/:id/clock', handler: (req) => ({ body: view(workspaceOr404(store, param(req, 'id')).id) }) },
    {
      method: 'post',
      path: '/workspaces/:id/clock',
      handler: (req) => {
        const body = parseInput(clockBody, req.body)
        const workspace = workspaceOr404(store, param(req, 'id'))
        if (body.advance === undefined && body.set === undefined && body.freeze === undefined) {
          throw invalidRequest('send at least one of `advance`, `set`, `freeze`')
        }
        // Parse everything before changing anything, so a refused request changes nothing.
        const advance = body.advance === undefined ? undefined : parseDuration(body.advance, 'advance')
        const set = body.set === undefined ? undefined : Date.parse(body.set)
        const target = (set ?? clocks.view(workspace.id).now) + (advance ?? 0)
        if (!(target >= 0 && target <= LATEST)) {
          const field = set === undefined ? 'advance' : 'set'
          throw invalidRequest(`\`${field}\` would move workspace time outside ${iso(0)} .. ${iso(LATEST)}`, field)
        }
        // Reviews the clock has passed are expired for good before it moves, and after (GATE-02 review TTL).
        expireOverdueReviews(ctx.deps)
        clocks.change(workspace.id, { set, advance, freeze: body.freeze })
        expireOverdueReviews(ctx.deps)
        return { body: view(workspace.id) }
      },
    },
    {
      method: 'delete',
      path: '/workspaces/:id/clock',
      handler: (req) => {
        const workspace = workspaceOr404(store, param(req, 'id'))
        // Back on the sandbox clock may be earlier: what this clock passed stays expired.
        expireOverdueReviews(ctx.deps)
        clocks.release(workspace.id)
        expireOverdueReviews(ctx.deps)
        return { body: view(workspace.id) }
      },
    },
  ]
}
