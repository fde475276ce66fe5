import type { AppContext } from '../context.js'
import { z } from 'zod'
import type { Route } from '../reply.js'
import { parseInput } from '../reply.js'
import { actorOf, callerOf } from '../auth.js'
import { publicKey } from '../../domain/keys.js'
import { resolveWorkspace } from '../../domain/access.js'
import { SandboxError } from '../../domain/errors.js'
import { creditsView } from '../../domain/billing.js'

/** `/v1/credits?limit=&cursor=`: a page of the ledger, newest first; `ledger_next_cursor` continues it. */
const creditsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().regex(/^s[0-9a-z]{1,12}$/, 'must be a ledger_next_cursor of an earlier answer').optional(),
})

/** `/v1/me`, `/v1/credits`, `/v1/connections` on the api host (REST-03). */
export function identityRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'get',
      path: '/v1/me',
      handler: (req) => {
        const caller = callerOf(ctx, req, 'resource')
        // Identity answers even when the workspace cannot be resolved, and says why.
        let workspace: { id: string; name: string } | null = null
        let workspace_error: string | null = null
        try {
          const { workspace: w } = resolveWorkspace(ctx.deps, caller)
          workspace = { id: w.id, name: w.name }
        } catch (error) {
          if (!(error instanceof SandboxError)) throw error
          workspace_error = error.message
        }
        const { user } = caller
        return {
          body: {
            key: publicKey(caller.key),
            user: { id: user.id, email: user.email, name: user.name },
            workspace,
            ...(workspace_error ? { workspace_error } : {}),
            sandbox: true,
          },
        }
      },
    },
    {
      method: 'get',
      path: '/v1/credits',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', null)
        const query = parseInput(creditsQuery, { ...req.query }, 'Query')
        return { body: creditsView(ctx.deps, actor.workspace, actor.key.id, query.limit, query.cursor ?? null) }
      },
    },
    {
      method: 'get',
      path: '/v1/connections',
      handler: (req) => {
        const { workspace } = actorOf(ctx, req, 'resource', 'connections:read')
        const connections = ctx.deps.store.connections.filter((c) => c.workspace_id === workspace.id)
        return { body: { connections, count: connections.length, sandbox: true } }
      },
    },
  ]
}
