import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { creditsSchema, rateLimitsSchema } from '../../domain/world-schema.js'
import { creditsView, setCredits } from '../../domain/billing.js'
import { setRateLimits } from '../../domain/rate-limits.js'
import { notFound } from '../../domain/errors.js'
import type { Workspace } from '../../domain/model.js'
import type { Store } from '../../domain/ports.js'

/** The workspace `id` names, or 404 (shared by the control routes that address a workspace). */
export function workspaceOr404(store: Store, id: string): Workspace {
  const workspace = store.workspaces.get(id)
  if (!workspace) throw notFound(`Workspace ${id}`)
  return workspace
}

/** `/_sandbox/workspaces/{id}/credits` and `/rate-limits` (ERR-02..04 configuration). */
export function limitsRoutes(ctx: AppContext): Route[] {
  const { deps } = ctx
  const workspace = (id: string): Workspace => workspaceOr404(deps.store, id)
  const credits = (id: string) => {
    const { used_by_key: _u, ...view } = creditsView(deps, workspace(id), '')
    return view
  }
  return [
    { method: 'get', path: '/workspaces/:id/credits', handler: (req) => ({ body: credits(param(req, 'id')) }) },
    {
      method: 'put',
      path: '/workspaces/:id/credits',
      handler: (req) => {
        const body = parseInput(creditsSchema, req.body)
        workspace(param(req, 'id'))
        setCredits(deps, param(req, 'id'), body)
        return { body: credits(param(req, 'id')) }
      },
    },
    {
      method: 'get',
      path: '/workspaces/:id/rate-limits',
      handler: (req) => ({ body: { workspace_id: param(req, 'id'), ...workspace(param(req, 'id')).rate_limits } }),
    },
    {
      method: 'put',
      path: '/workspaces/:id/rate-limits',
      handler: (req) => {
        const body = parseInput(rateLimitsSchema, req.body)
        workspace(param(req, 'id'))
        return { body: { workspace_id: param(req, 'id'), ...setRateLimits(deps, param(req, 'id'), body) } }
      },
    },
  ]
}

