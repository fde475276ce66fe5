import type { Deps } from '../domain/ports.js'
import { nowIn } from '../domain/workspace-time.js'
import type { PublicAudit } from '../domain/audit.js'
import { listAudit } from '../domain/audit.js'
import { findEntry } from '../domain/catalog.js'
import type { WriteEffect } from './write-effect.js'
import { describeEffect, flag } from './write-effect.js'

/** A held write as the review queue shows it: the audit entry plus who and where, by name. */
export interface QueueEntry extends PublicAudit {
  user_name: string
  key_name: string | null
  workspace_name: string | null
  /** Credits the write costs when approved (held writes are charged on approval), from the catalog. */
  cost: number | null
  /** What approving it does, in words, and the confirmation question when it can raise spend. */
  effect: WriteEffect
  /** The catalog's one-line title of the script, e.g. "Enable a campaign". */
  title: string | null
  /** How far the workspace's clock is from the sandbox clock (issue 19; 0 without its own): the countdown reads that time. */
  clock_offset_ms: number
}

// Far above any realistic queue; the console shows every pending write.
const QUEUE_LIMIT = 10_000

/**
 * Pending writes, oldest first, with names resolved (GATE-01, GATE-04). Reviews past their TTL are
 * expired first (the same lazy expiry as the audit routes), so the queue never offers one that can
 * no longer be approved.
 */
export function pendingQueue(deps: Deps, workspaceId?: string): QueueEntry[] {
  const { store } = deps
  const page = listAudit(deps, { status: 'pending_review', workspace_id: workspaceId, limit: QUEUE_LIMIT })
  // Oldest first; insertion order breaks ties within one millisecond.
  return page.entries.reverse().sort((a, b) => a.at.localeCompare(b.at)).map((a) => ({
    ...a,
    user_name: store.users.get(a.user_id)?.name ?? a.user_id,
    key_name: store.keys.get(a.key_id)?.name ?? null,
    workspace_name: store.workspaces.get(a.workspace_id)?.name ?? null,
    cost: entryOf(deps, a.script)?.credit_cost ?? null,
    effect: effectOf(deps, a),
    title: entryOf(deps, a.script)?.title ?? null,
    clock_offset_ms: nowIn(deps, a.workspace_id) - deps.clock.now(),
  }))
}

// A held write of a loaded catalog's tool (issue 35) is named from that catalog.
function entryOf(deps: Deps, script: string) {
  return findEntry(script) ?? deps.snapshot?.find(script)
}

function effectOf(deps: Deps, a: PublicAudit): WriteEffect {
  const id = flag(a.args, '--campaign-id')
  const campaign = id ? deps.store.campaigns.get(id) ?? null : null
  const account = deps.store.connections.filter((c) => c.workspace_id === a.workspace_id && c.platform === a.platform)[0]
  return describeEffect(a, campaign && campaign.workspace_id === a.workspace_id ? campaign : null, account?.currency ?? null)
}
