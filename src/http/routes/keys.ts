import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { actorOf } from '../auth.js'
import { issueChildKey, listWorkspaceKeys, revokeKey } from '../../domain/keys.js'

const createKeyBody = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string').max(100),
  scopes: z.array(z.string(), 'must be an array of scope strings').min(1, 'must name at least one scope'),
  expires_in_days: z.number('must be an integer from 1 to 365').optional(),
})

/** `/api/v1/keys` (KEY-03..08). */
export function keyRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'post',
      path: '/api/v1/keys',
      handler: (req) => {
        const body = parseInput(createKeyBody, req.body)
        const actor = actorOf(ctx, req, 'resource', 'workspace:write')
        return { status: 201, body: issueChildKey(ctx.deps, actor, body) }
      },
    },
    {
      method: 'get',
      path: '/api/v1/keys',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'workspace:read')
        const keys = listWorkspaceKeys(ctx.deps, actor)
        return { body: { keys, count: keys.length, workspace_id: actor.workspace.id } }
      },
    },
    {
      method: 'delete',
      path: '/api/v1/keys/:keyId',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'workspace:write')
        return { body: { ...revokeKey(ctx.deps, actor, param(req, 'keyId')), revoked: true } }
      },
    },
  ]
}
