import type { HistoryPage, HistoryQuery } from '../domain/ports.js'
import type { LogTable } from './history-table.js'
import { countedValue } from './history-pins.js'

/** A page newest first by sequence number; `s<seq>` cursors name the last row returned. */
export function pageOf<T extends { id: string }>(table: LogTable<T>, query: HistoryQuery<T>): HistoryPage<T> {
  const limit = query.limit ?? Infinity
  let skip = query.offset ?? 0
  const below = query.cursor ? Number.parseInt(query.cursor.slice(1), 36) : table.nextSeq
  const within = query.within && !query.cursor ? { ...query.within, left: table.count(query.within.field, query.within.value) } : null
  const seqs = query.pinnedOnly ? table.pinnedSeqs().filter((s) => s < below) : null
  const rows: T[] = []
  let matched = 0
  let last = -1
  let more = false
  const visit = (seq: number): boolean => {
    const row = table.rowAt(seq)
    if (!row) return true
    if (within && countedValue(row, within.field) === within.value) within.left--
    if (query.where && !query.where(row)) return true
    if (skip > 0) {
      skip--
      matched++
      return true
    }
    if (rows.length >= limit) {
      more = true
      return false
    }
    rows.push(row)
    last = seq
    matched++
    return true
  }
  if (seqs) {
    for (const seq of seqs) if (!visit(seq)) break
  } else {
    const stopAt = Math.max(0, below - (query.examine ?? Infinity))
    let seq = below - 1
    for (; seq >= 0; seq--) {
      if (within && within.left <= 0) break
      if (!visit(seq)) break
      // Read as much as the caller allows: what is left is for the next page.
      if (seq === stopAt && seq > 0 && !more && (!within || within.left > 0)) {
        more = true
        last = seq
        break
      }
    }
  }
  // A page that starts at a cursor saw only part of the history, so it cannot say how much matches in all.
  return { rows, next: more ? `s${last.toString(36)}` : null, total: more || query.cursor ? null : matched }
}

/** Rows oldest first (whole-history reads: exports, tests, full rewrites), mapped by `as`. */
export function scanForward<T extends { id: string }, R = T>(table: LogTable<T>, predicate: (row: T) => boolean, limit = Infinity, as: (row: T, seq: number) => R = (row) => row as unknown as R): R[] {
  const out: R[] = []
  for (let seq = 0; seq < table.nextSeq && out.length < limit; seq++) {
    const row = table.rowAt(seq, 'forward')
    if (row && predicate(row)) out.push(as(row, seq))
  }
  return out
}
