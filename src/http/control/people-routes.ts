import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { addMembership, createUser, createWorkspace, listWorkspaces, removeMembership } from '../../domain/admin.js'
import { mintKey, publicKey } from '../../domain/keys.js'
import { notFound } from '../../domain/errors.js'
import { creditsSchema, policySchema, rateLimitsSchema } from '../../domain/world-schema.js'
import { expiresInDays, scopeName } from '../routes/keys.js'

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, `_` or `-`')

const name = z.string('must be a string').min(1, 'must be a non-empty string').max(200, 'must be at most 200 characters')
const userBody = z.strictObject({ email: z.email().max(254), name, id: id.optional() })
const workspaceBody = z.strictObject({
  name,
  owner_user_id: id,
  parent_id: id.nullable().optional(),
  id: id.optional(),
  credits: creditsSchema.optional(),
  policy: policySchema.optional(),
  rate_limits: rateLimitsSchema.optional(),
})
const membershipBody = z.strictObject({ user_id: id, workspace_id: id, role: z.enum(['owner', 'admin', 'member']).optional() })
const keyBody = z.strictObject({
  user_id: id,
  workspace_id: id.nullable().optional(),
  scopes: z.array(scopeName, 'must be an array of scope strings').min(1, 'must name at least one scope'),
  name: z.string('must be a string').min(1).max(100).optional(),
  expires_in_days: expiresInDays.optional(),
})

/** What a signed-in browser session would do: users, workspaces, memberships, keys (DESIGN). */
export function peopleRoutes(ctx: AppContext): Route[] {
  const { deps } = ctx
  return [
    { method: 'get', path: '/users', handler: () => ({ body: { users: deps.store.users.all() } }) },
    { method: 'post', path: '/users', handler: (req) => ({ status: 201, body: createUser(deps, parseInput(userBody, req.body)) }) },
    { method: 'get', path: '/workspaces', handler: () => ({ body: { workspaces: listWorkspaces(deps) } }) },
    {
      method: 'post',
      path: '/workspaces',
      handler: (req) => ({ status: 201, body: createWorkspace(deps, parseInput(workspaceBody, req.body)) }),
    },
    { method: 'get', path: '/memberships', handler: () => ({ body: { memberships: deps.store.memberships.all() } }) },
    {
      method: 'post',
      path: '/memberships',
      handler: (req) => ({ status: 201, body: addMembership(deps, parseInput(membershipBody, req.body)) }),
    },
    { method: 'delete', path: '/memberships/:id', handler: (req) => ({ body: removeMembership(deps, param(req, 'id')) }) },
    { method: 'get', path: '/keys', handler: () => ({ body: { keys: deps.store.keys.all().map((k) => ({ ...publicKey(k), revoked_at: k.revoked_at })) } }) },
    {
      method: 'post',
      path: '/keys',
      handler: (req) => {
        const body = parseInput(keyBody, req.body)
        if (!deps.store.users.get(body.user_id)) throw notFound(`User ${body.user_id}`)
        if (body.workspace_id && !deps.store.workspaces.get(body.workspace_id)) throw notFound(`Workspace ${body.workspace_id}`)
        const key = mintKey(deps, { ...body, name: body.name ?? 'minted', workspace_id: body.workspace_id ?? null })
        return { status: 201, body: key }
      },
    },
  ]
}
