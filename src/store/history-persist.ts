import type { HistoryConfig } from './history-layout.js'
import type { PinSet, Tallies } from './history-pins.js'
import type { LogTable } from './history-table.js'
import { IdIndex } from './id-index.js'
import { SeqArrays } from './seq-arrays.js'

/** A row change waiting for the next flush: the row, or null for a removal. */
export interface DirtyRow<T> {
  seq: number
  id: string
  row: T | null
}

/** A table's part of a checkpoint file (`log-file.ts`). */
export interface TableCheckpoint {
  next: number
  live: number
  deadBytes: number
  idSize: number | null
  /** Slots of the id index (a power of two), or null without one. */
  idSlots: number | null
  /** Chunks of the sequence arrays (`SeqArrays.CHUNK` rows each). */
  chunks: number
  pinned: number[]
  counts: Array<[string, Array<[string, number]>]>
  reducers: Array<[string, unknown]>
}

/** A row held in memory, with its sequence number. */
export interface HistoryEntry<T> {
  seq: number
  row: T
}

/** The parts of a `LogTable` that checkpoints and replay work on. */
export interface TableCore<T extends { id: string }> {
  table: LogTable<T>
  config: HistoryConfig<T>
  seqs: SeqArrays
  ids: IdIndex | null
  tallies: Tallies<T>
  mem: Map<string, HistoryEntry<T>>
  dirty: Map<string, DirtyRow<T>>
  pins: PinSet<T>
  live(): number
  set(parts: { seqs?: SeqArrays; ids?: IdIndex; live?: number }): void
  keep(seq: number, row: T): void
  forget(id: string, seq: number): void
  added(row: T, seq: number): void
  removed(row: T): void
  unpin(row: T): void
}

/** The typed arrays a checkpoint holds, in file order. */
export interface CheckpointArrays {
  offsets: Float64Array[]
  lengths: Uint32Array[]
  hashes: Uint32Array | null
  seqs: Int32Array | null
}

/** The arrays (as they are, not copied: the checkpoint is written synchronously) and the rest as JSON. */
export function checkpointOf<T extends { id: string }>(core: TableCore<T>): { state: TableCheckpoint; arrays: CheckpointArrays } {
  const { table, tallies } = core
  const seqs = core.seqs.dump()
  const ids = core.ids?.dump() ?? null
  const state: TableCheckpoint = {
    next: seqs.next, live: core.live(), deadBytes: table.deadBytes, idSize: ids?.size ?? null, idSlots: ids?.seqs.length ?? null,
    chunks: seqs.offsets.length,
    pinned: table.pinnedSeqs().filter((s) => core.seqs.offset(s) >= 0),
    counts: [...tallies.counts].map(([field, counts]) => [field, [...counts]]),
    reducers: [...tallies.reducers].map(([name, r]) => [name, r.dump()]),
  }
  return { state, arrays: { offsets: seqs.offsets, lengths: seqs.lengths, hashes: ids?.hashes ?? null, seqs: ids?.seqs ?? null } }
}

/** Loads a checkpoint into a cleared table (its arrays are views into the checkpoint's buffer); pinned rows are read back from the log. */
export function restoreFrom<T extends { id: string }>(core: TableCore<T>, state: TableCheckpoint, arrays: CheckpointArrays): void {
  core.set({
    seqs: SeqArrays.restore({ offsets: arrays.offsets, lengths: arrays.lengths, next: state.next }),
    ...(core.ids && arrays.hashes && arrays.seqs && state.idSize !== null ? { ids: IdIndex.restore({ hashes: arrays.hashes, seqs: arrays.seqs, size: state.idSize }) } : {}),
    live: state.live,
  })
  core.table.deadBytes = state.deadBytes
  for (const [field, counts] of state.counts) core.tallies.counts.set(field, new Map(counts))
  for (const [name, data] of state.reducers) core.tallies.reducers.get(name)?.restore(data)
  for (const seq of state.pinned) {
    const row = core.table.rowAt(seq)
    if (row) core.keep(seq, row)
  }
}

/** Folds one log line read at open (`offset`, `length` bytes): the latest version of each seq wins. */
export function replayLine<T extends { id: string }>(core: TableCore<T>, line: { s: number; r?: T; del?: string }, offset: number, length: number): void {
  const { s: seq } = line
  const { seqs, table } = core
  seqs.ensure(seq)
  const previous = seqs.offset(seq)
  const before = previous >= 0 ? table.rowAt(seq) : undefined
  if (previous >= 0) table.deadBytes += seqs.length(seq) + 1
  if (before) core.unpin(before)
  if (line.r) {
    if (!before) core.added(line.r, seq)
    seqs.setOffset(seq, offset, length)
    core.forget(line.r.id, seq)
    if (core.config.pin?.(line.r)) core.keep(seq, line.r)
    return
  }
  table.deadBytes += length + 1
  if (before) {
    core.removed(before)
    core.forget(before.id, seq)
  }
  seqs.setOffset(seq, SeqArrays.GONE, 0)
}

/** Records where a flush put a row (`offset`, `length` bytes); the version it supersedes becomes dead bytes. */
export function writtenAt<T extends { id: string }>(core: TableCore<T>, row: DirtyRow<T>, offset: number, length: number): void {
  const { seqs, table } = core
  if (seqs.offset(row.seq) >= 0) table.deadBytes += seqs.length(row.seq) + 1
  if (row.row === null) {
    table.deadBytes += length + 1
    seqs.setOffset(row.seq, SeqArrays.GONE, 0)
    return
  }
  seqs.setOffset(row.seq, offset, length)
}

/** Drops the oldest unpinned, flushed rows from memory until at most `window` remain. */
export function trimWindow<T extends { id: string }>(core: TableCore<T>, window: number): void {
  const { mem, pins, dirty, seqs } = core
  let budget = mem.size
  for (const [id, entry] of mem) {
    if (mem.size - pins.ids.size <= window || budget-- <= 0) break
    if (pins.ids.has(id) || dirty.has(id) || seqs.offset(entry.seq) < 0) {
      // Still needed: move it behind the rows that can go.
      mem.delete(id)
      mem.set(id, entry)
      continue
    }
    core.forget(id, entry.seq)
  }
}
