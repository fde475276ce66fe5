import type { Request } from 'express'
import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { actorOf } from '../auth.js'
import { connectionRequestStatus, requestConnection, startConnectLink } from '../../domain/connections.js'

const platformBody = z.object({ platform: z.string('must be a platform name such as `google`').trim().min(1, 'must be a platform name such as `google`') })

/**
 * `/api/v1/connections/*` on the base host (CONN-01, CONN-03, CONN-04). Starting a link and
 * requesting one need `connections:write`; a request's status needs `connections:read`.
 */
export function connectionRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'post',
      path: '/api/v1/connections/start',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'connections:write')
        const body = parseInput(platformBody, req.body)
        return { status: 201, body: { ...startConnectLink(ctx.deps, actor, { platform: body.platform, baseUrl: baseUrlOf(ctx, req) }), sandbox: true } }
      },
    },
    {
      method: 'post',
      path: '/api/v1/connections/request',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'connections:write')
        const body = parseInput(platformBody, req.body)
        const { request } = requestConnection(ctx.deps, actor, { platform: body.platform, baseUrl: baseUrlOf(ctx, req) })
        return { status: 201, body: { ...request, request_id: request.id, sandbox: true } }
      },
    },
    {
      method: 'get',
      path: '/api/v1/connections/requests/:id',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'connections:read')
        return { body: { ...connectionRequestStatus(ctx.deps, actor, param(req, 'id')), sandbox: true } }
      },
    },
  ]
}

/** `{base_url}` as bound, or as the request reached us when the app is not listening itself. */
export function baseUrlOf(ctx: AppContext, req: Request): string {
  return ctx.urls.base || `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`
}
