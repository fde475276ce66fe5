import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { parseInput } from '../reply.js'
import { invalidRequest } from '../../domain/errors.js'
import { TABLE_NAMES } from '../../store/layout.js'
import { snapshotSchema } from '../../store/snapshot-schema.js'
import type { Snapshot } from '../../domain/ports.js'

// A shipped world's name, or a path to a .yaml file: the control plane reads no other files.
const worldRef = z.string().min(1).max(500).regex(/^[A-Za-z0-9_-]+$|\.ya?ml$/, 'must be a world name or a path to a .yaml file')
const resetBody = z.strictObject({ world: worldRef.optional(), seed: z.number().int().optional() })

/** Reset, export/import and the list of shipped worlds. */
export function worldRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'post',
      path: '/reset',
      handler: async (req) => {
        const body = parseInput(resetBody, req.body ?? {})
        try {
          const keys = await ctx.worlds.reset(body.world, body.seed)
          // The journal's exchanges name audit entries and keys of the world just dropped: they go too
          // (issue 37), so no link points at a record that no longer exists. Sequence numbers keep counting.
          ctx.journal.clear()
          return { body: { world: ctx.deps.store.meta().world, seed: ctx.deps.store.meta().seed, keys } }
        } catch (error) {
          if (error instanceof Error && !('code' in error)) throw invalidRequest(`\`world\`: ${error.message}`, 'world')
          throw error
        }
      },
    },
    { method: 'get', path: '/worlds', handler: async () => ({ body: { worlds: await ctx.worlds.list() } }) },
    { method: 'get', path: '/state', handler: () => ({ body: ctx.deps.store.snapshot() }) },
    {
      method: 'put',
      path: '/state',
      handler: (req) => {
        const snapshot = parseInput(snapshotSchema, req.body) as unknown as Snapshot
        ctx.deps.store.replace(snapshot)
        ctx.clock.restore(snapshot.meta.clock)
        return { body: { imported: true, counts: counts(snapshot) } }
      },
    },
  ]
}

function counts(snapshot: Snapshot): Record<string, number> {
  return Object.fromEntries(TABLE_NAMES.map((name) => [name, snapshot[name].length]))
}
