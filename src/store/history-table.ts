import type { HistoryPage, HistoryQuery, HistoryTable } from '../domain/ports.js'
import type { ChangeListener } from './memory-table.js'
import type { HistoryConfig, Reducer } from './history-layout.js'
import { IdIndex } from './id-index.js'
import type { LogReader } from './log-reader.js'
import { SeqArrays } from './seq-arrays.js'

interface Entry<T> {
  seq: number
  row: T
}

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
  pinned: number[]
  counts: Array<[string, Array<[string, number]>]>
  reducers: Array<[string, unknown]>
}

/** Rows kept in memory beyond pinned and unflushed ones, per table (docs/decisions.md). */
export const HISTORY_WINDOW = 1000

/**
 * A history table (`HistoryTable`): rows get an insertion sequence number; the latest version of
 * each lives in the state log at a byte offset (`SeqArrays`), and memory keeps only unflushed rows,
 * pinned rows (the config's `pin`), the newest `window` rows, per-value counts and aggregates. With
 * no reader (memory state) every row stays in memory. Pages are read newest first by sequence
 * number, so a cursor (`s<seq>`) stays valid while rows append and across compactions.
 */
export class LogTable<T extends { id: string }> implements HistoryTable<T> {
  readonly #mem = new Map<string, Entry<T>>()
  readonly #bySeq = new Map<number, Entry<T>>()
  readonly #pinned = new Set<string>()
  readonly #pins = new Map<string, string[]>()
  readonly #counts = new Map<string, Map<string, number>>()
  readonly #reducers = new Map<string, Reducer<T>>()
  readonly #dirty = new Map<string, DirtyRow<T>>()
  #ids: IdIndex | null
  #seqs = new SeqArrays()
  #live = 0
  /** Bytes of superseded lines in the log (what a compaction would drop). */
  deadBytes = 0

  constructor(
    private readonly name: string,
    private readonly config: HistoryConfig<T>,
    private readonly onChange: ChangeListener,
    private readonly reader: LogReader | null,
    private readonly window = HISTORY_WINDOW,
  ) {
    this.#ids = reader && config.byId ? new IdIndex() : null
    for (const field of config.counted ?? []) this.#counts.set(field, new Map())
    for (const [name, make] of Object.entries(config.reducers ?? {})) this.#reducers.set(name, make())
  }

  get nextSeq(): number {
    return this.#seqs.next
  }

  get(id: string): T | undefined {
    const entry = this.#mem.get(id)
    if (entry) return entry.row
    if (!this.reader) return undefined
    if (this.#ids) {
      const seq = this.#ids.find(id, (s) => this.rowAt(s)?.id === id)
      return seq === undefined ? undefined : this.rowAt(seq)
    }
    return this.page({ where: (r) => r.id === id, limit: 1 }).rows[0]
  }

  all(): readonly T[] {
    return this.filter(() => true)
  }

  find(predicate: (row: T) => boolean): T | undefined {
    for (let s = 0; s < this.#seqs.next; s++) {
      const row = this.rowAt(s, 'forward')
      if (row && predicate(row)) return row
    }
    return undefined
  }

  findBy<K extends keyof T>(field: K, value: T[K]): T | undefined {
    if (field === 'id') return this.get(value as string)
    return this.find((row) => row[field] === value)
  }

  filter(predicate: (row: T) => boolean): T[] {
    const out: T[] = []
    for (let s = 0; s < this.#seqs.next; s++) {
      const row = this.rowAt(s, 'forward')
      if (row && predicate(row)) out.push(row)
    }
    return out
  }

  insert(row: T): T {
    // Ids come from `Ids.next`; tables without an id index check the rows in memory only.
    if (this.#mem.has(row.id) || (this.#ids && this.get(row.id))) throw new Error(`duplicate id ${row.id}`)
    const seq = this.#seqs.push()
    this.#added(row, seq)
    this.#keep(seq, row, true)
    this.onChange(row.id, true)
    return row
  }

  update(id: string, patch: Partial<T>): T {
    const next = this.#patch(id, patch, true)
    this.onChange(id, true)
    return next
  }

  touch(id: string, patch: Partial<T>): void {
    this.#patch(id, patch, false)
    this.onChange(id, false)
  }

  remove(id: string): void {
    const row = this.get(id)
    if (!row) return
    const seq = this.#seqOf(id)!
    this.#removed(row)
    this.#unpin(row)
    this.#forget(id, seq)
    if (this.#seqs.offset(seq) >= 0) this.deadBytes += this.#seqs.length(seq) + 1
    this.#seqs.setOffset(seq, SeqArrays.GONE, 0)
    if (this.reader) this.#dirty.set(id, { seq, id, row: null })
    this.onChange(id, true)
  }

  size(): number {
    return this.#live
  }

  page(query: HistoryQuery<T>): HistoryPage<T> {
    return pageOf(this, query)
  }

  pinned(): readonly T[] {
    const rows = [...this.#pinned].map((id) => this.#mem.get(id)!)
    return rows.sort((a, b) => a.seq - b.seq).map((e) => e.row)
  }

  pinnedBy(key: string): T | undefined {
    const id = this.#pins.get(key)?.[0]
    return id === undefined ? undefined : this.#mem.get(id)?.row
  }

  /** Pinned rows with their sequence numbers, newest first (pages of pinned rows). */
  pinnedSeqs(): number[] {
    return [...this.#pinned].map((id) => this.#mem.get(id)!.seq).sort((a, b) => b - a)
  }

  count(field: string, value: string): number {
    const counts = this.#counts.get(field)
    if (!counts) throw new Error(`${this.name}.${field} is not a counted field`)
    return counts.get(value) ?? 0
  }

  aggregate<A>(name: string): A {
    const reducer = this.#reducers.get(name)
    if (!reducer) throw new Error(`${this.name} keeps no aggregate ${name}`)
    return reducer.value() as A
  }

  /** The row at `seq` (memory first, else its line in the log), or undefined if there is none. */
  rowAt(seq: number, direction: 'back' | 'forward' = 'back'): T | undefined {
    const entry = this.#bySeq.get(seq)
    if (entry) return entry.row
    const offset = this.#seqs.offset(seq)
    if (offset < 0 || !this.reader) return undefined
    return this.reader.line<{ r: T }>(offset, this.#seqs.length(seq), direction).r
  }

  /** Replace every row without notifying (reset, import): all rows stay in memory until the next flush writes them. */
  load(rows: readonly T[]): void {
    this.clear()
    for (const row of rows) {
      const seq = this.#seqs.push()
      this.#added(row, seq)
      this.#keep(seq, row, true)
    }
  }

  clear(): void {
    this.#mem.clear()
    this.#bySeq.clear()
    this.#pinned.clear()
    this.#pins.clear()
    for (const counts of this.#counts.values()) counts.clear()
    for (const [name, make] of Object.entries(this.config.reducers ?? {})) this.#reducers.set(name, make())
    this.#dirty.clear()
    this.#ids?.clear()
    this.#seqs = new SeqArrays()
    this.#live = 0
    this.deadBytes = 0
  }

  /** Rows changed since the last flush, oldest first; the caller writes them, then calls `written` (or `requeue`). */
  takeDirty(): DirtyRow<T>[] {
    const rows = [...this.#dirty.values()].sort((a, b) => a.seq - b.seq)
    this.#dirty.clear()
    return rows
  }

  /** Every live row in sequence order, marked clean (a full rewrite of the log is about to hold them). */
  takeAll(): DirtyRow<T>[] {
    this.#dirty.clear()
    const out: DirtyRow<T>[] = []
    for (let s = 0; s < this.#seqs.next; s++) {
      const row = this.rowAt(s, 'forward')
      if (row) out.push({ seq: s, id: row.id, row })
    }
    return out
  }

  requeue(rows: DirtyRow<T>[]): void {
    for (const row of rows) if (!this.#dirty.has(row.id)) this.#dirty.set(row.id, row)
  }

  /** The flush put `row` at `offset` (`length` bytes); superseded lines count as dead, old rows leave memory. */
  written(row: DirtyRow<T>, offset: number, length: number): void {
    const previous = this.#seqs.offset(row.seq)
    if (previous >= 0) this.deadBytes += this.#seqs.length(row.seq) + 1
    if (row.row === null) {
      this.deadBytes += length + 1
      this.#seqs.setOffset(row.seq, SeqArrays.GONE, 0)
      return
    }
    this.#seqs.setOffset(row.seq, offset, length)
  }

  /** Drops the oldest unpinned, flushed rows until at most `window` remain (memory state keeps all). */
  trim(): void {
    if (!this.reader) return
    let budget = this.#mem.size
    for (const [id, entry] of this.#mem) {
      if (this.#mem.size - this.#pinned.size <= this.window || budget-- <= 0) break
      if (this.#pinned.has(id) || this.#dirty.has(id) || this.#seqs.offset(entry.seq) < 0) {
        // Still needed: move it behind the rows that can go.
        this.#mem.delete(id)
        this.#mem.set(id, entry)
        continue
      }
      this.#forget(id, entry.seq)
    }
  }

  /** What a checkpoint needs to rebuild this table without reading its rows: arrays as blobs, the rest as JSON. */
  checkpoint(): { state: TableCheckpoint; blobs: ArrayBufferView[] } {
    const seqs = this.#seqs.dump()
    const ids = this.#ids?.dump() ?? null
    const state: TableCheckpoint = {
      next: seqs.next, live: this.#live, deadBytes: this.deadBytes, idSize: ids?.size ?? null,
      pinned: this.pinnedSeqs().filter((s) => this.#seqs.offset(s) >= 0),
      counts: [...this.#counts].map(([field, counts]) => [field, [...counts]]),
      reducers: [...this.#reducers].map(([name, r]) => [name, r.dump()]),
    }
    return { state, blobs: ids ? [seqs.offsets, seqs.lengths, ids.hashes, ids.seqs] : [seqs.offsets, seqs.lengths] }
  }

  /** Rebuilds from a checkpoint (pinned rows are read back from the log). */
  restore(state: TableCheckpoint, blobs: Buffer[]): void {
    this.clear()
    const copy = <A>(make: new (b: ArrayBuffer) => A, b: Buffer) => new make(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)
    this.#seqs = SeqArrays.restore({ offsets: copy(Float64Array, blobs[0]), lengths: copy(Uint32Array, blobs[1]), next: state.next })
    if (this.#ids && state.idSize !== null) this.#ids = IdIndex.restore({ hashes: copy(Uint32Array, blobs[2]), seqs: copy(Int32Array, blobs[3]), size: state.idSize })
    this.#live = state.live
    this.deadBytes = state.deadBytes
    for (const [field, counts] of state.counts) this.#counts.set(field, new Map(counts))
    for (const [name, data] of state.reducers) this.#reducers.get(name)?.restore(data)
    for (const seq of state.pinned) {
      const row = this.rowAt(seq)
      if (row) this.#keep(seq, row, false)
    }
  }

  /** A compaction moved the latest version of `seq` to `offset` in the new log (no dead bytes there yet). */
  relocate(seq: number, offset: number, length: number): void {
    this.#seqs.setOffset(seq, offset, length)
  }

  /** The log line bytes of `seq`'s latest version, or null if it has none on disk. */
  located(seq: number): { offset: number; length: number } | null {
    const offset = this.#seqs.offset(seq)
    return offset >= 0 ? { offset, length: this.#seqs.length(seq) } : null
  }

  /** Folds one log line read at open (`offset`, `length` bytes): the latest version of each seq wins. */
  replay(line: { s: number; r?: T; del?: string }, offset: number, length: number): void {
    const { s: seq } = line
    this.#seqs.ensure(seq)
    const previous = this.#seqs.offset(seq)
    const before = previous >= 0 ? this.rowAt(seq) : undefined
    if (previous >= 0) this.deadBytes += this.#seqs.length(seq) + 1
    if (before) this.#unpin(before)
    if (line.r) {
      if (!before) this.#added(line.r, seq)
      this.#seqs.setOffset(seq, offset, length)
      this.#forget(line.r.id, seq)
      if (this.config.pin?.(line.r)) this.#keep(seq, line.r, false)
      return
    }
    this.deadBytes += length + 1
    if (before) {
      this.#removed(before)
      this.#forget(before.id, seq)
    }
    this.#seqs.setOffset(seq, SeqArrays.GONE, 0)
  }

  #patch(id: string, patch: Partial<T>, durable: boolean): T {
    const row = this.get(id)
    if (!row) throw new Error(`no row ${id}`)
    const seq = this.#seqOf(id)!
    // Rows are replaced, not mutated, so a value handed out earlier stays a consistent snapshot.
    const next = { ...row, ...patch }
    this.#unpin(row)
    this.#keep(seq, next, durable)
    return next
  }

  #seqOf(id: string): number | undefined {
    const entry = this.#mem.get(id)
    if (entry) return entry.seq
    return this.#ids?.find(id, (s) => this.rowAt(s)?.id === id)
  }

  #keep(seq: number, row: T, durable: boolean): void {
    const entry = { seq, row }
    this.#mem.delete(row.id)
    this.#mem.set(row.id, entry)
    this.#bySeq.set(seq, entry)
    if (durable && this.reader) this.#dirty.set(row.id, { seq, id: row.id, row })
    this.#pin(row)
  }

  #forget(id: string, seq: number): void {
    this.#mem.delete(id)
    this.#bySeq.delete(seq)
  }

  #added(row: T, seq: number): void {
    this.#live++
    this.#ids?.add(row.id, seq)
    for (const [field, counts] of this.#counts) bump(counts, (row as Record<string, unknown>)[field], 1)
    for (const reducer of this.#reducers.values()) reducer.add(row)
  }

  #removed(row: T): void {
    this.#live--
    for (const [field, counts] of this.#counts) bump(counts, (row as Record<string, unknown>)[field], -1)
    for (const reducer of this.#reducers.values()) reducer.remove(row)
  }

  #pin(row: T): void {
    if (!this.config.pin?.(row)) return
    this.#pinned.add(row.id)
    const key = this.config.pinKey?.(row)
    if (!key) return
    const ids = this.#pins.get(key) ?? []
    if (!ids.includes(row.id)) ids.push(row.id)
    this.#pins.set(key, ids)
  }

  #unpin(row: T): void {
    if (!this.#pinned.delete(row.id)) return
    for (const [key, ids] of this.#pins) {
      if (!ids.includes(row.id)) continue
      const rest = ids.filter((id) => id !== row.id)
      if (rest.length) this.#pins.set(key, rest)
      else this.#pins.delete(key)
    }
  }
}

function bump(counts: Map<string, number>, value: unknown, by: number): void {
  if (typeof value !== 'string') return
  const next = (counts.get(value) ?? 0) + by
  if (next > 0) counts.set(value, next)
  else counts.delete(value)
}

/** A page newest first by sequence number; `s<seq>` cursors name the last row returned. */
function pageOf<T extends { id: string }>(table: LogTable<T>, query: HistoryQuery<T>): HistoryPage<T> {
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
    if (within && (row as Record<string, unknown>)[within.field] === within.value) within.left--
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
    for (let seq = below - 1; seq >= 0; seq--) {
      if (within && within.left <= 0) break
      if (!visit(seq)) break
    }
  }
  // A page that starts at a cursor saw only part of the history, so it cannot say how much matches in all.
  return { rows, next: more ? `s${last.toString(36)}` : null, total: more || query.cursor ? null : matched }
}
