import type { Deps } from './ports.js'
import type { AuditEntry } from './model.js'
import { refreshExpiry } from './audit.js'

/**
 * A still-pending entry for the same write (expiry applied first), so a retry is not queued twice
 * (GATE-01: the retry answers the same `audit_id`): the oldest `pending_review` row with this
 * dedupe key. The store keeps pending reviews in memory, indexed by dedupe key
 * (`HistoryTable.pinnedBy`), so the lookup costs the same whatever history was written before it.
 */
export function findPendingDuplicate(deps: Deps, dedupeKey: string | null | undefined): AuditEntry | undefined {
  if (!dedupeKey) return undefined
  const found = deps.store.audit.pinnedBy(dedupeKey)
  return found && refreshExpiry(deps, found).status === 'pending_review' ? found : undefined
}
