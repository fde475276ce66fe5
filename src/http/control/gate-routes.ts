import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { workspaceOr404 } from './limits-routes.js'
import { defaultPolicy } from '../../domain/policy.js'
import { checkBlockTools } from '../../domain/tool-blocks.js'
import { CATALOG } from '../../domain/catalog.js'
import type { OutboxMail } from '../../domain/model.js'
import { policySchema } from '../../domain/world-schema.js'

const outboxQuery = z.strictObject({
  workspace_id: z.string().optional(),
  to: z.string().optional(),
  request_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
})

/**
 * Control plane for the safety gate and connections: `PUT /_sandbox/workspaces/{id}/policy`
 * (GATE-02, GATE-03) and `GET /_sandbox/outbox` (CONN-04).
 */
export function gateControlRoutes(ctx: AppContext): Route[] {
  const { store } = ctx.deps
  return [
    {
      method: 'get',
      path: '/workspaces/:id/policy',
      handler: (req) => {
        const workspace = workspaceOr404(store, param(req, 'id'))
        return { body: { workspace_id: workspace.id, policy: workspace.policy } }
      },
    },
    {
      method: 'put',
      path: '/workspaces/:id/policy',
      handler: (req) => {
        const body = parseInput(policySchema, req.body)
        const workspace = workspaceOr404(store, param(req, 'id'))
        // Every entry must block something: a name that matches no write would leave it open.
        checkBlockTools(body.block_tools, CATALOG)
        // PUT replaces the policy: fields left out take the default, as in a world file.
        const policy = { ...defaultPolicy(), ...body }
        store.workspaces.update(workspace.id, { policy })
        return { body: { workspace_id: workspace.id, policy } }
      },
    },
    {
      method: 'get',
      path: '/outbox',
      handler: (req) => {
        const q = parseInput(outboxQuery, { ...req.query }, 'Query')
        const where = (m: OutboxMail) =>
          (!q.workspace_id || m.workspace_id === q.workspace_id) && (!q.to || m.to === q.to) && (!q.request_id || m.request_id === q.request_id)
        // Newest first from the outbox history; the count comes from kept counts unless a row filter needs a scan.
        const within = q.workspace_id ? { field: 'workspace_id', value: q.workspace_id } : undefined
        const page = store.outbox.page({ where, limit: q.limit ?? 100, within })
        const count = page.total ?? (q.to || q.request_id ? store.outbox.page({ where, within }).rows.length : within ? store.outbox.count(within.field, within.value) : store.outbox.size())
        return { body: { mails: page.rows, count } }
      },
    },
  ]
}
