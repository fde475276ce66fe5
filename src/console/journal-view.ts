import { z } from 'zod'
import type { Journal, JournalEntry } from '../http/journal.js'

/** A journal row as the console shows it: the exchange plus what a dispatcher call was about. */
export interface ConsoleExchange extends JournalEntry {
  /** Script (REST dispatcher) or MCP tool name, from the journaled request body; null when none. */
  script: string | null
  platform: string | null
  /** The audit entry a write produced, from the response body; null for reads and refusals before the gate. */
  audit_id: string | null
}

/**
 * The console's journal filters. `status` is an exact code (`404`) or a class (`4xx`); anything
 * else is refused with a message saying so (a bare `4` used to match nothing, silently).
 */
export const consoleJournalQuery = z.strictObject({
  since: z.coerce.number().int().nonnegative().optional(),
  path: z.string().max(200).optional(),
  key_prefix: z.string().max(40).optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']).optional(),
  host: z.enum(['base', 'api']).optional(),
  status: z.string().regex(/^[1-5](\d\d|xx)$/i, 'use an exact status such as 404 or a class such as 4xx').optional(),
  script: z.string().min(1).max(100).optional(),
  request_id: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
})
export type ConsoleJournalQuery = z.output<typeof consoleJournalQuery>

// Deep enough for a JSON-RPC result (`result.structuredContent.audit_id`), shallow enough to stay cheap.
const MAX_DEPTH = 4

function find(value: unknown, key: string, depth = 0): unknown {
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return undefined
  const record = value as Record<string, unknown>
  if (key in record) return record[key]
  for (const child of Object.values(record)) {
    const found = find(child, key, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** `"name": "value"` read from JSON text that may end mid-way; null when the kept part does not hold it whole. */
function fromText(body: string, name: string): string | null {
  return new RegExp(`"${name}"\\s*:\\s*"([A-Za-z0-9_.-]{1,100})"`).exec(body)?.[1] ?? null
}

const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null)

/**
 * What a dispatcher call was about, read from the journaled bodies: REST `{script_name, platform}`
 * or an MCP `tools/call` (`params.name`, `params.arguments`). A body the journal truncated is text:
 * the fields are read from its kept part when they are there whole, else null rather than a guess.
 */
export function describeExchange(entry: JournalEntry): ConsoleExchange {
  const body = entry.request.body
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : null
  const params = record?.method === 'tools/call' && record.params && typeof record.params === 'object' ? (record.params as Record<string, unknown>) : null
  const args = params?.arguments && typeof params.arguments === 'object' ? (params.arguments as Record<string, unknown>) : null
  // A body over the journal's cap is kept as text; its kept part usually still names the script.
  const cut = typeof body === 'string' ? body : ''
  const script = text(record?.script_name) ?? text(args?.script_name) ?? text(params?.name) ?? fromText(cut, 'script_name')
  const platform = text(record?.platform) ?? text(args?.platform) ?? fromText(cut, 'platform')
  const auditId = text(find(entry.response.body, 'audit_id'))
  return { ...entry, script, platform, audit_id: auditId }
}

function statusMatches(status: number, wanted: string): boolean {
  return /xx$/i.test(wanted) ? Math.floor(status / 100) === Number(wanted[0]) : status === Number(wanted)
}

/** The journal filtered as the console asks (REST-01 dispatcher calls named by script), newest last. */
export function consoleJournal(journal: Journal, q: ConsoleJournalQuery): { entries: ConsoleExchange[]; last_seq: number } {
  const limit = q.limit ?? 200
  const exact = q.status && !/xx$/i.test(q.status) ? Number(q.status) : undefined
  // Filters the journal knows run there; script and status class need the expanded entry.
  const derived = Boolean(q.script) || (q.status !== undefined && exact === undefined)
  const page = journal.query({
    since: q.since, path: q.path, key_prefix: q.key_prefix, method: q.method, host: q.host, status: exact, request_id: q.request_id || undefined,
    limit: derived ? 10_000 : limit,
  })
  const script = q.script?.toLowerCase()
  const entries = page.entries.map(describeExchange).filter((e) =>
    (!q.status || statusMatches(e.status, q.status)) && (!script || (e.script?.toLowerCase().includes(script) ?? false)))
  return { entries: entries.slice(-limit), last_seq: page.last_seq }
}
