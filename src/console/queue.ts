import type { Store } from '../domain/ports.js'
import type { AuditEntry } from '../domain/model.js'
import { findEntry } from '../domain/catalog.js'

/** A held write as the review queue shows it: the audit entry plus who and where, by name. */
export interface QueueEntry extends AuditEntry {
  user_name: string
  key_name: string | null
  workspace_name: string | null
  /** Credits the write costs when approved (held writes are charged on approval), from the catalog. */
  cost: number | null
}

/**
 * Pending writes, oldest first, with names resolved (GATE-01, GATE-04). Entries past `expires_at`
 * are left out even if the expiry sweep has not marked them yet: they can no longer be approved.
 */
export function pendingQueue(store: Store, now: string): QueueEntry[] {
  return store.audit
    .filter((a) => a.status === 'pending_review' && (!a.expires_at || a.expires_at > now))
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((a) => ({
      ...a,
      user_name: store.users.get(a.user_id)?.name ?? a.user_id,
      key_name: store.keys.get(a.key_id)?.name ?? null,
      workspace_name: store.workspaces.get(a.workspace_id)?.name ?? null,
      cost: findEntry(a.script)?.credit_cost ?? null,
    }))
}
