import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { parseInput } from '../reply.js'
import { invalidRequest } from '../../domain/errors.js'
import { iso, parseDuration } from '../../domain/durations.js'
import { expireOverdueReviews } from '../../domain/audit.js'
import type { VirtualClock } from '../../runtime/virtual-clock.js'

/** The latest instant sandbox time may reach (ISO text cannot render later dates). */
export const LATEST = Date.parse('9999-12-31T23:59:59.999Z')

/** Body of `POST /_sandbox/clock` and `POST /_sandbox/workspaces/{id}/clock`. */
export const clockBody = z.strictObject({
  advance: z.union([z.string(), z.number().nonnegative()]).optional(),
  set: z.iso.datetime({ offset: true }).optional(),
  freeze: z.boolean().optional(),
})

const journalQuery = z.strictObject({
  since: z.coerce.number().int().nonnegative().optional(),
  path: z.string().optional(),
  key_prefix: z.string().optional(),
  method: z.string().optional(),
  status: z.coerce.number().int().optional(),
  host: z.enum(['base', 'api']).optional(),
  request_id: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
})

/** What `GET /_sandbox/clock` answers; the console's queue carries the same view. */
export function clockView(clock: VirtualClock): { now: string; frozen: boolean; offset_ms: number } {
  const state = clock.state()
  return { now: iso(clock.now()), frozen: state.frozen_at !== null, offset_ms: state.offset_ms }
}

/** Sandbox time and the request journal. */
export function clockJournalRoutes(ctx: AppContext): Route[] {
  return [
    { method: 'get', path: '/clock', handler: () => ({ body: clockView(ctx.clock) }) },
    {
      method: 'post',
      path: '/clock',
      handler: (req) => {
        const body = parseInput(clockBody, req.body)
        if (body.advance === undefined && body.set === undefined && body.freeze === undefined) {
          throw invalidRequest('send at least one of `advance`, `set`, `freeze`')
        }
        // Parse everything before changing anything, so a refused request changes nothing.
        const advance = body.advance === undefined ? undefined : parseDuration(body.advance, 'advance')
        const target = (body.set === undefined ? ctx.clock.now() : Date.parse(body.set)) + (advance ?? 0)
        // Dates past year 9999 cannot be rendered as ISO text; refuse them instead of breaking every later response.
        if (!(target >= 0 && target <= LATEST)) {
          const field = body.set === undefined ? 'advance' : 'set'
          throw invalidRequest(`\`${field}\` would move sandbox time outside ${iso(0)} .. ${iso(LATEST)}`, field)
        }
        // Reviews the clock has passed are expired for good before it moves, and after (GATE-02 review TTL).
        expireOverdueReviews(ctx.deps)
        if (body.set !== undefined) ctx.clock.set(Date.parse(body.set))
        if (advance !== undefined) ctx.clock.advance(advance)
        if (body.freeze !== undefined) ctx.clock.freeze(body.freeze)
        expireOverdueReviews(ctx.deps)
        ctx.worlds.saveClock()
        return { body: clockView(ctx.clock) }
      },
    },
    {
      method: 'get',
      path: '/journal',
      handler: (req) => ({ body: ctx.journal.query(parseInput(journalQuery, { ...req.query }, 'Query')) }),
    },
    {
      method: 'delete',
      path: '/journal',
      handler: () => {
        ctx.journal.clear()
        return { body: { cleared: true, last_seq: ctx.journal.lastSeq } }
      },
    },
  ]
}
