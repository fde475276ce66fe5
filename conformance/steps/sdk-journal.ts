import { z } from 'zod'
import type { StepContext, StepSubject } from '../types.js'
import type { Mismatch } from '../matchers.js'
import { checkValue, matchSubset } from '../matchers.js'
import { causedBy } from '../sdk/caused.js'
import type { JournalEntry } from '../../src/support/wire.js'

/**
 * `sdk_journal`: assertions over the exchanges one `sdk` step caused (SDK-01..09), read from the
 * sandbox journal. Each exchange is seen as `{seq, host, method, path, status, fault, duration_ms,
 * headers, body, response: {headers, body}}` (request headers and body at the top, credentials
 * redacted to their prefix). `gaps_ms[i]` is the time from the end of exchange i to the start of
 * exchange i+1: the wait the SDK chose before retrying.
 */
export const sdkJournalSchema = z.strictObject({
  /** Id of the `sdk` step; default the latest `sdk` step of the scenario. */
  of: z.string().optional(),
  /** Only exchanges whose path contains this. */
  path: z.string().optional(),
  /** Number of exchanges: a number or a matcher (`{lte: 4}`). */
  count: z.unknown().optional(),
  /** Subset (with matchers) that every exchange must match. */
  each: z.unknown().optional(),
  /** Exchange index (0-based; negative from the end) → subset it must match. */
  at: z.record(z.string().regex(/^-?\d+$/, 'must be an index such as 0 or -1'), z.unknown()).optional(),
  /** Subset that no exchange may match. */
  none: z.unknown().optional(),
  /** One matcher per gap between consecutive exchanges, e.g. `{gte: 950, lte: 1300}`. */
  gaps_ms: z.array(z.unknown()).optional(),
})
export type SdkJournalSpec = z.output<typeof sdkJournalSchema>

/** A check that did not hold; its message is the step's reason. */
export class SdkJournalMismatch extends Error {
  override name = 'sdk_journal'
}

type Entry = JournalEntry

export async function runSdkJournal(spec: SdkJournalSpec, ctx: StepContext): Promise<StepSubject> {
  const j = ctx.render(spec)
  const subject = j.of === undefined ? undefined : ctx.subjects.get(j.of)
  if (j.of !== undefined && !subject) throw new SdkJournalMismatch(`no earlier step with id \`${j.of}\``)
  if (subject?.skipped) return { skipped: `step \`${j.of}\` was skipped` }
  const range = causedBy(ctx.scenario, subject)
  if (!range) throw new SdkJournalMismatch(j.of ? `step \`${j.of}\` is not an sdk step that ran` : 'no sdk step ran before this one')
  const journal: Entry[] = await ctx.target.control!.journal({ since: range.after, limit: 10_000 })
  const entries = journal.filter((e) => e.seq <= range.upTo && (j.path === undefined || e.path.includes(j.path))).sort((a, b) => a.seq - b.seq)
  const views = entries.map(view)
  const gaps = gapsOf(entries)
  const failures = check(j, views, gaps)
  const notes = entries.map((e, i) => `#${i + 1} ${e.method} ${e.path} → ${e.status}${e.fault ? ` [fault ${e.fault}]` : ''} ${e.duration_ms} ms${i > 0 ? `, after a gap of ${gaps[i - 1]} ms` : ''}`)
  if (failures.length) throw new SdkJournalMismatch(`${failures.join('; ')} — the ${range.label} step sent ${notes.length ? notes.join(', ') : 'nothing'}`)
  return { status: 200, body: { count: views.length, exchanges: views, gaps_ms: gaps }, notes }
}

function view(e: Entry) {
  return { seq: e.seq, host: e.host, method: e.method, path: e.path, status: e.status, fault: e.fault, duration_ms: e.duration_ms, headers: e.request.headers, body: e.request.body, response: e.response }
}

/** Start of i+1 (its end minus its duration) minus end of i, in whole ms. */
function gapsOf(entries: Entry[]): number[] {
  const end = (e: Entry) => Date.parse(e.at)
  return entries.slice(1).map((e, i) => Math.round(end(e) - e.duration_ms - end(entries[i])))
}

function check(j: SdkJournalSpec, views: ReturnType<typeof view>[], gaps: number[]): string[] {
  const out: string[] = []
  if (j.count !== undefined && checkValue(views.length, j.count) !== null) out.push(`count: expected ${JSON.stringify(j.count)}, got ${views.length}`)
  if (j.each !== undefined) views.forEach((v, i) => out.push(...mismatches(`exchange ${i + 1}`, matchSubset(j.each, v))))
  for (const [key, expected] of Object.entries(j.at ?? {})) {
    const index = Number(key) < 0 ? views.length + Number(key) : Number(key)
    if (!views[index]) out.push(`exchange ${key}: there are only ${views.length}`)
    else out.push(...mismatches(`exchange ${index + 1}`, matchSubset(expected, views[index])))
  }
  if (j.none !== undefined) views.forEach((v, i) => matchSubset(j.none, v).length === 0 && out.push(`exchange ${i + 1} matches ${JSON.stringify(j.none)}, which none may`))
  ;(j.gaps_ms ?? []).forEach((spec, i) => {
    if (gaps[i] === undefined) out.push(`gap ${i + 1}: expected ${JSON.stringify(spec)}, but there is no exchange ${i + 2}`)
    else if (checkValue(gaps[i], spec) !== null) out.push(`gap ${i + 1}: expected ${JSON.stringify(spec)} ms, got ${gaps[i]} ms`)
  })
  return out
}

function mismatches(label: string, list: Mismatch[]): string[] {
  return list.map((m) => `${label} ${m.path.replace(/^\$\.?/, '')}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.given)?.slice(0, 160)}`)
}
