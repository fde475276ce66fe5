import type { Deps, Table } from './ports.js'
import type { AuditEntry } from './model.js'
import { refreshExpiry } from './audit.js'

/**
 * Where the pending entry of each held write was last seen, per audit table: a hint, never trusted
 * without checking. Finding the entry by scanning the audit from its oldest row cost time in
 * proportion to the history written before it, so a retried held write whose entry sat behind
 * 50 000 rows took ~3 ms while one whose entry was older took ~0.03 ms (bench/README.md, issue 17).
 */
const hints = new WeakMap<Table<AuditEntry>, Map<string, AuditEntry>>()

/** Hints kept per audit table (oldest forgotten first): a forgotten hint only costs one scan. */
export const PENDING_HINT_LIMIT = 10_000

/**
 * A still-pending entry for the same write (expiry applied first), so a retry is not queued twice
 * (GATE-01: the retry answers the same `audit_id`). Always the answer of a scan for the oldest
 * `pending_review` row with this dedupe key: a hint is used only while the audit still holds that
 * very row object. Rows are replaced on every update, never mutated (`Table`), so an identical
 * row is still pending with this key; and no older row can have become pending with the key since,
 * because a held write is queued only when no live pending entry has its key, and an approval that
 * fails puts its entry back in the same synchronous turn (`approveWrite`). Anything else (expiry,
 * review, reset, import) replaces the row object, and the lookup falls back to the scan.
 */
export function findPendingDuplicate(deps: Deps, dedupeKey: string | null | undefined): AuditEntry | undefined {
  if (!dedupeKey) return undefined
  const found = hinted(deps.store.audit, dedupeKey) ??
    deps.store.audit.find((e) => e.status === 'pending_review' && e.dedupe_key === dedupeKey)
  if (!found || refreshExpiry(deps, found).status !== 'pending_review') {
    hints.get(deps.store.audit)?.delete(dedupeKey)
    return undefined
  }
  return rememberPending(deps, found)
}

/** Records where a held write's pending entry is (`submitWrite` after queuing it); returns the entry. */
export function rememberPending(deps: Deps, entry: AuditEntry): AuditEntry {
  if (!entry.dedupe_key || entry.status !== 'pending_review') return entry
  let table = hints.get(deps.store.audit)
  if (!table) hints.set(deps.store.audit, (table = new Map()))
  // Re-inserted so the Map's order is least recently used first.
  table.delete(entry.dedupe_key)
  table.set(entry.dedupe_key, entry)
  if (table.size > PENDING_HINT_LIMIT) table.delete(table.keys().next().value as string)
  return entry
}

function hinted(audit: Table<AuditEntry>, dedupeKey: string): AuditEntry | undefined {
  const row = hints.get(audit)?.get(dedupeKey)
  return row && audit.get(row.id) === row ? row : undefined
}
