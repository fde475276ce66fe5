import type { Campaign, CampaignStatus } from './model.js'
import { iso } from './durations.js'
import { DAY_MS } from './metrics.js'
import { appendEntry, timesOf } from './history-times.js'

type Entry = Campaign['status_history'][number]

/** The newest status changes a campaign keeps exactly as they were made (sandbox decision). */
export const RECENT_STATUS_CHANGES = 10

/**
 * A campaign's status history with a new change appended, bounded (sandbox decision, issue 17):
 * an agent that pauses and enables a campaign in a loop must not make every later write and metrics
 * read of it slower, nor every doc line of it longer. The last `RECENT_STATUS_CHANGES` changes stay
 * as made; before them, the changes of each UTC day are folded to at most three entries that keep
 * the day's first and last change and the time spent ENABLED between them, so the metrics of every
 * day (`enabledMs`) and the status at every instant outside the folded stretches stay what they were.
 * Folding runs once the history is twice that long, so a write copies at most 20 entries plus three
 * per earlier day with changes. Ten, because the campaign's doc line carries its whole row (docs/decisions.md).
 */
export function appendStatusChange(history: readonly Entry[], change: Entry): Entry[] {
  const next = appendEntry(history, change)
  return next.length > 2 * RECENT_STATUS_CHANGES ? foldStatusHistory(next, RECENT_STATUS_CHANGES) : next
}

/** Folds every UTC day's changes before the last `keep` entries (see `appendStatusChange`); the first entry always stays. */
export function foldStatusHistory(history: readonly Entry[], keep: number): Entry[] {
  const cut = Math.max(1, history.length - keep)
  const times = timesOf(history)
  const out: Entry[] = [history[0]]
  let from = 1
  for (let i = 1; i <= cut; i++) {
    // A day's group ends at the cut or where the next entry falls on another UTC day.
    if (i < cut && dayOf(times[i]) === dayOf(times[from])) continue
    out.push(...foldDay(history.slice(from, i), times.slice(from, i)))
    from = i
  }
  for (let i = cut; i < history.length; i++) out.push(history[i])
  return out
}

/**
 * One day's changes as at most three: the first (same instant, same status), one turn that leaves
 * the same ENABLED time between the first and the last, the last (same instant, same status). Left
 * as they are when out of order (made after a clock rewind): the intervals would not be what the
 * folding assumes.
 */
function foldDay(group: Entry[], times: readonly number[]): Entry[] {
  if (group.length <= 3) return group
  for (let i = 1; i < times.length; i++) if (times[i] < times[i - 1]) return group
  const first = group[0]
  const start = times[0]
  const end = times[times.length - 1]
  let enabled = 0
  for (let i = 0; i + 1 < group.length; i++) if (group[i].status === 'ENABLED') enabled += times[i + 1] - times[i]
  // Enabled first: on for `enabled` ms, then off until the last change; off first: on for the last `enabled` ms.
  const on = first.status === 'ENABLED'
  const turnAt = on ? start + enabled : end - enabled
  const folded: Entry[] = [first]
  // A turn at the first change's instant makes the first one last 0 ms; one at the last change's is not needed.
  if (turnAt < end) folded.push({ at: iso(turnAt), status: on ? offStatus(group) : 'ENABLED' })
  folded.push(group[group.length - 1])
  return folded
}

function offStatus(group: Entry[]): CampaignStatus {
  return group.find((e) => e.status !== 'ENABLED')?.status ?? 'PAUSED'
}

function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS)
}
