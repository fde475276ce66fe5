import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { parseInput } from '../reply.js'
import { invalidRequest } from '../../domain/errors.js'
import { copyWorld } from '../../domain/world-copy.js'
import { generateCampaigns } from '../../domain/campaigns.js'
import { loadWorld } from '../../store/world-file.js'

const copyBody = z.strictObject({
  world: z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/, 'must be the name of a shipped world').optional(),
  /** Give each copied workspace its own clock (default true). */
  clocks: z.boolean().optional(),
})

/**
 * `POST /_sandbox/world-copies` (issue 19): seeds an independent copy of a shipped world beside the
 * current state, each copied workspace on its own clock, so scenarios can run in parallel on one
 * running sandbox. Copies stay until the next reset.
 */
export function worldCopyRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'post',
      path: '/world-copies',
      handler: async (req) => {
        const body = parseInput(copyBody, req.body ?? {})
        const world = await loadWorld(body.world ?? ctx.deps.store.meta().world).catch((error: Error) => {
          throw invalidRequest(`\`world\`: ${error.message}`, 'world')
        })
        const copy = copyWorld(ctx.deps, world, generateCampaigns)
        if (body.clocks !== false) for (const id of copy.workspaces) ctx.workspaceClocks.change(id, { advance: 0 })
        return { status: 201, body: copy }
      },
    },
  ]
}
