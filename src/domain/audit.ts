import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { AuditEntry, AuditStatus } from './model.js'
import { notFound } from './errors.js'
import { redactValue } from '../support/redact.js'
import { parseInstant } from './history-times.js'

/**
 * History rows one page reads at most (sandbox decision): a narrow filter over a long history
 * answers a short page with `has_more` and a `next_cursor` instead of holding the event loop while
 * it reads the whole history from disk.
 */
export const PAGE_EXAMINE = 20_000

/** Filters of `GET /_sandbox/audit` and `GET /api/v1/audit`; all optional, combined with AND. */
export interface AuditFilter {
  workspace_id?: string
  status?: AuditStatus
  decision?: AuditEntry['decision']
  script?: string
  key_id?: string
  key_prefix?: string
  /** Entries at or after this sandbox time (ISO). */
  since?: string
  limit?: number
  offset?: number
  /** `next_cursor` of a previous page: the entries written before its last one (stable while entries append). */
  cursor?: string
}

export interface AuditPage {
  entries: PublicAudit[]
  /** Matching entries in the whole audit; null when that would mean reading the history on disk past this page. */
  total: number | null
  limit: number
  offset: number
  has_more: boolean
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null
}

/** An audit entry as responses show it: `audit_id`, and `reviewed_args` on held writes (GATE-01). */
export type PublicAudit = Omit<AuditEntry, 'dedupe_key'> & { audit_id: string; reviewed_args?: string[] }

/** An entry as responses show it; key values masked again, for entries stored before they were masked (KEY-02). */
export function publicAudit(entry: AuditEntry): PublicAudit {
  const shown = redactValue(entry)
  // Copied key by key into a fresh object, then named stores: an entry has 20-odd keys, and a copy
  // made by rest-spread or `Object.assign` past ≈ 16 keys is a dictionary-mode object in V8, slow
  // to add to, walk and serialise (≈ 7 µs against ≈ 0.4 µs per answer, bench/README.md).
  const out = {} as Record<string, unknown>
  for (const key in shown) if (key !== 'dedupe_key' && Object.hasOwn(shown, key)) out[key] = shown[key as keyof AuditEntry]
  out.audit_id = entry.id
  if (entry.decision === 'hold') out.reviewed_args = shown.args
  return out as PublicAudit
}

/**
 * The entry with every key value or OAuth token in it (args, results, before/after, comments),
 * plain or percent- or `\u`-escaped, masked to its 12-character prefix (KEY-02): a key passed as
 * data is never stored whole. A held write's args are its masked args, so approval runs those.
 */
export function redactAudit(entry: AuditEntry): AuditEntry {
  return redactValue(entry)
}

/**
 * Expires a pending review whose TTL has passed, judged by sandbox time at the moment it is looked
 * at (sandbox decision: reviews expire after `review_ttl_hours`). Lazy, so an approval and an expiry
 * can never both win: whoever reads the entry first at a time past `expires_at` sees it expired.
 */
export function refreshExpiry(deps: Deps, entry: AuditEntry): AuditEntry {
  if (entry.status !== 'pending_review' || !entry.expires_at) return entry
  if (nowIn(deps, entry.workspace_id) < parseInstant(entry.expires_at)) return entry
  return deps.store.audit.update(entry.id, { status: 'expired' })
}

/**
 * Records every pending review whose TTL the clock has passed as `expired` (sandbox decision,
 * GATE-02 review TTL). The clock routes call it before and after they move a clock: expiry is then a
 * fact stored once the clock passed it, so setting the clock back never revives a review. Pending
 * reviews are the store's in-memory pinned rows, so this costs one look per pending review.
 */
export function expireOverdueReviews(deps: Deps): number {
  let expired = 0
  for (const pending of deps.store.audit.pinned()) {
    if (pending.status === 'pending_review' && refreshExpiry(deps, pending).status === 'expired') expired++
  }
  return expired
}

/**
 * One audit entry, expiry applied. With `workspaceId`, another workspace's entry answers 404 like
 * a missing one (KEY-12).
 */
export function getAuditEntry(deps: Deps, id: string, workspaceId?: string): AuditEntry {
  const entry = deps.store.audit.get(id)
  if (!entry || (workspaceId !== undefined && entry.workspace_id !== workspaceId)) throw notFound(`Audit entry ${id}`)
  return refreshExpiry(deps, entry)
}

/**
 * Audit entries matching `filter`, newest first, expiry applied to pending ones first. Pages come
 * from the store's history (memory, then disk): pending reviews from the in-memory pinned rows, a
 * workspace's or key's entries with an early stop once all of them were seen (their counts are kept).
 */
export function listAudit(deps: Deps, filter: AuditFilter = {}): AuditPage {
  const limit = filter.limit ?? 100
  const offset = filter.offset ?? 0
  const { audit } = deps.store
  for (const pending of audit.pinned()) {
    if (pending.status === 'pending_review' && (filter.workspace_id === undefined || pending.workspace_id === filter.workspace_id)) refreshExpiry(deps, pending)
  }
  const within = countedScope(filter)
  const page = audit.page({ where: matcher(filter), limit, offset, cursor: filter.cursor ?? null, within, pinnedOnly: filter.status === 'pending_review', examine: PAGE_EXAMINE })
  const narrowed = filter.status !== undefined || filter.decision !== undefined || filter.script !== undefined || filter.key_prefix !== undefined || filter.since !== undefined
  // Without a row filter the kept counts are the exact total, whatever the page saw.
  const total = narrowed || filter.cursor ? page.total : within ? audit.count(within.field, within.value) : audit.size()
  return { entries: page.rows.map(publicAudit), total, limit, offset, has_more: page.next !== null, next_cursor: page.next }
}

function matcher(filter: AuditFilter): (e: AuditEntry) => boolean {
  const since = filter.since ? Date.parse(filter.since) : null
  return (e) =>
    (filter.workspace_id === undefined || e.workspace_id === filter.workspace_id) &&
    (filter.status === undefined || e.status === filter.status) &&
    (filter.decision === undefined || e.decision === filter.decision) &&
    (filter.script === undefined || e.script === filter.script) &&
    (filter.key_id === undefined || e.key_id === filter.key_id) &&
    (filter.key_prefix === undefined || e.key_prefix.startsWith(filter.key_prefix)) &&
    (since === null || parseInstant(e.at) >= since)
}

/** The counted field every match shares (an early stop, and the exact total without row filters). */
function countedScope(filter: AuditFilter): { field: string; value: string } | undefined {
  // An unpinned key can write in several workspaces: its entries in one are counted as a pair.
  if (filter.key_id !== undefined && filter.workspace_id !== undefined) return { field: 'workspace_id|key_id', value: `${filter.workspace_id}|${filter.key_id}` }
  if (filter.key_id !== undefined) return { field: 'key_id', value: filter.key_id }
  return filter.workspace_id === undefined ? undefined : { field: 'workspace_id', value: filter.workspace_id }
}

/** Identifies "the same write": same workspace, key, script, platform and ordered args. */
export function dedupeKeyOf(workspaceId: string, keyId: string, call: { entry: { name: string }; platform: string | null; args: readonly string[] }): string {
  return JSON.stringify([workspaceId, keyId, call.entry.name, call.platform, call.args])
}
