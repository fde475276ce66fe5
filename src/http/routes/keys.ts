import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { actorOf } from '../auth.js'
import { MAX_KEY_DAYS, issueChildKey, listWorkspaceKeys, revokeKey } from '../../domain/keys.js'
import { isKnownScope } from '../../domain/scopes.js'

const DAYS = `must be an integer from 1 to ${MAX_KEY_DAYS}`

/** A known scope name; shared with the control plane's key minting. */
export const scopeName = z.string('must be a scope string').refine(isKnownScope, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` })

/** `expires_in_days`: a positive integer, at most 365 (KEY-04), checked once the caller is authorized. */
export const expiresInDays = z.number(DAYS).int(DAYS).min(1, DAYS).max(MAX_KEY_DAYS, DAYS)

// Unknown fields are ignored on the public API (docs/decisions.md).
const createKeyBody = z.object({
  name: z.string('must be a string').trim().min(1, 'must be a non-empty string').max(100, 'must be at most 100 characters'),
  scopes: z.array(scopeName, 'must be an array of scope strings').min(1, 'must name at least one scope'),
  expires_in_days: expiresInDays.optional(),
})

/** `/api/v1/keys` (KEY-03..08). */
export function keyRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'post',
      path: '/api/v1/keys',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'workspace:write')
        const body = parseInput(createKeyBody, req.body)
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
