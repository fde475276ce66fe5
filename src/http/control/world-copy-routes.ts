import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { invalidRequest, notFound } from '../../domain/errors.js'
import { copyWorld, removeWorldCopy } from '../../domain/world-copy.js'
import { generateCampaigns } from '../../domain/campaigns.js'

const copyBody = z.strictObject({
  world: z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/, 'must be the name of a shipped world').optional(),
  /** Give each copied workspace its own clock (default true). */
  clocks: z.boolean().optional(),
})

/**
 * `POST /_sandbox/world-copies` (issue 19): seeds an independent copy of a shipped world beside the
 * current state, each copied workspace on its own clock, so scenarios can run in parallel on one
 * running sandbox. Copies stay until the next reset or `DELETE /_sandbox/world-copies/{suffix}`.
 */
export function worldCopyRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'post',
      path: '/world-copies',
      handler: async (req) => {
        const body = parseInput(copyBody, req.body ?? {})
        const world = await ctx.worlds.load(body.world ?? ctx.deps.store.meta().world).catch((error: Error) => {
          throw invalidRequest(`\`world\`: ${error.message}`, 'world')
        })
        const copy = copyWorld(ctx.deps, world, generateCampaigns)
        if (body.clocks !== false) for (const id of copy.workspaces) ctx.workspaceClocks.change(id, { advance: 0 })
        return { status: 201, body: copy }
      },
    },
    {
      method: 'delete',
      path: '/world-copies/:suffix',
      handler: async (req) => {
        const suffix = param(req, 'suffix')
        const removed = /^[A-Za-z0-9]{1,64}$/.test(suffix) ? removeWorldCopy(ctx.deps, suffix) : null
        if (!removed) throw notFound('world copy')
        return { status: 200, body: { suffix, removed } }
      },
    },
  ]
}
