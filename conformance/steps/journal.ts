import { z } from 'zod'
import type { StepContext, StepSubject } from '../types.js'
import { checkValue, queryPath } from '../matchers.js'

/** `journal`: what the sandbox recorded since the scenario started, filtered. */
export const journalSchema = z.strictObject({
  path: z.string().optional(),
  method: z.string().optional(),
  status: z.number().int().optional(),
  host: z.enum(['base', 'api']).optional(),
  key_prefix: z.string().optional(),
  /** JSONPath (on each entry) → matcher; only entries matching all are kept. */
  where: z.record(z.string(), z.unknown()).default({}),
  /** Shorthand assertion: exactly this many entries. */
  count: z.number().int().nonnegative().optional(),
})

export type JournalSpec = z.output<typeof journalSchema>

/** The result body is `{entries, count}`; `expect` and `match` read it like a response. */
export async function runJournal(spec: JournalSpec, ctx: StepContext): Promise<StepSubject> {
  const j = ctx.render(spec)
  const control = ctx.target.control
  if (!control) return { skipped: 'the target has no journal' }
  const { path, method, status, host, key_prefix } = j
  const recorded = await control.journal({ since: ctx.journalSince, limit: 10000, path, method, status, host, key_prefix })
  const entries = recorded.filter((e) => Object.entries(j.where).every(([at, m]) => checkValue(queryPath(e, at), m) === null))
  const body = { entries, count: entries.length }
  if (j.count !== undefined && entries.length !== j.count) {
    return { status: 417, body: { ...body, error: `expected ${j.count} journal entries, found ${entries.length}` } }
  }
  return { status: 200, body }
}
