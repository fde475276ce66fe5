import type { HistoryPage, HistoryQuery, HistoryTable } from '../domain/ports.js'
import type { ChangeListener } from './memory-table.js'
import type { HistoryConfig } from './history-layout.js'
import { PinSet, Tallies } from './history-pins.js'
import { pageOf, scanForward } from './history-page.js'
import type { CheckpointArrays, DirtyRow, HistoryEntry, TableCheckpoint, TableCore } from './history-persist.js'
import { checkpointOf, replayLine, restoreFrom, trimWindow, writtenAt } from './history-persist.js'
import { IdIndex } from './id-index.js'
import type { LogReader } from './log-reader.js'
import { redactValue } from '../support/redact.js'
import { SeqArrays } from './seq-arrays.js'

export type { CheckpointArrays, DirtyRow, TableCheckpoint }
type Entry<T> = HistoryEntry<T>

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
  readonly #pins: PinSet<T>
  readonly #tallies: Tallies<T>
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
    this.#pins = new PinSet(config)
    this.#tallies = new Tallies(config)
  }

  /** Rows held in memory now (pinned, unflushed and the recent window): what the memory bound is about. */
  get resident(): number {
    return this.#mem.size
  }

  get nextSeq(): number { return this.#seqs.next }
  /** Unflushed rows (a checkpoint waits for them), and the counted fields (a checkpoint under others is replayed). */
  get hasDirty(): boolean { return this.#dirty.size > 0 }
  get countedFields(): string[] { return [...this.#tallies.counts.keys()] }

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

  // Whole-history reads (exports, tests): oldest first, from memory and disk.
  all(): readonly T[] { return this.filter(() => true) }
  find(predicate: (row: T) => boolean): T | undefined { return scanForward(this, predicate, 1)[0] }

  findBy<K extends keyof T>(field: K, value: T[K]): T | undefined {
    if (field === 'id') return this.get(value as string)
    return this.find((row) => row[field] === value)
  }

  filter(predicate: (row: T) => boolean): T[] { return scanForward(this, predicate) }

  insert(given: T): T {
    // Ids come from `Ids.next`; tables without an id index check the rows in memory only. Masked as MemoryTable does.
    if (this.#mem.has(given.id) || (this.#ids && this.get(given.id))) throw new Error(`duplicate id ${given.id}`)
    const row = redactValue(given)
    const seq = this.#seqs.push()
    this.#added(row, seq)
    this.#keep(seq, row, true)
    this.onChange(row.id, true)
    return row
  }

  update(id: string, patch: Partial<T>): T {
    const next = this.#patch(id, redactValue(patch), true)
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
    this.#pins.unpin(row)
    this.#forget(id, seq)
    if (this.#seqs.offset(seq) >= 0) this.deadBytes += this.#seqs.length(seq) + 1
    this.#seqs.setOffset(seq, SeqArrays.GONE, 0)
    if (this.reader) this.#dirty.set(id, { seq, id, row: null })
    this.onChange(id, true)
  }

  size(): number { return this.#live }
  page(query: HistoryQuery<T>): HistoryPage<T> { return pageOf(this, query) }

  pinned(): readonly T[] {
    const rows = [...this.#pins.ids].map((id) => this.#mem.get(id)!)
    return rows.sort((a, b) => a.seq - b.seq).map((e) => e.row)
  }

  pinnedBy(key: string): T | undefined {
    return this.#mem.get(this.#pins.first(key) ?? '')?.row
  }

  /** Pinned rows with their sequence numbers, newest first (pages of pinned rows). */
  pinnedSeqs(): number[] {
    return [...this.#pins.ids].map((id) => this.#mem.get(id)!.seq).sort((a, b) => b - a)
  }

  count(field: string, value: string): number {
    const counts = this.#tallies.counts.get(field)
    if (!counts) throw new Error(`${this.name}.${field} is not a counted field`)
    return counts.get(value) ?? 0
  }

  aggregate<A>(name: string): A {
    const reducer = this.#tallies.reducers.get(name)
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
    this.#pins.clear()
    this.#tallies.clear()
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
    return scanForward(this, () => true, Infinity, (row, seq) => ({ seq, id: row.id, row }))
  }

  requeue(rows: DirtyRow<T>[]): void {
    for (const row of rows) if (!this.#dirty.has(row.id)) this.#dirty.set(row.id, row)
  }

  /** The flush put `row` at `offset` (`length` bytes); superseded lines count as dead. */
  written(row: DirtyRow<T>, offset: number, length: number): void {
    writtenAt(this.#core(), row, offset, length)
  }

  /** Drops the oldest unpinned, flushed rows until at most `window` remain (memory state keeps all). */
  trim(): void {
    if (this.reader) trimWindow(this.#core(), this.window)
  }

  /** What a checkpoint needs to rebuild this table without reading its rows (`history-persist.ts`). */
  checkpoint(): { state: TableCheckpoint; arrays: CheckpointArrays } {
    return checkpointOf(this.#core())
  }

  /** Rebuilds from a checkpoint (pinned rows are read back from the log). */
  restore(state: TableCheckpoint, arrays: CheckpointArrays): void {
    this.clear()
    restoreFrom(this.#core(), state, arrays)
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
    replayLine(this.#core(), line, offset, length)
  }

  #coreCache: TableCore<T> | null = null

  #core(): TableCore<T> {
    // One object per table (replay calls this per log line); getters see the current arrays.
    const self = this
    return (this.#coreCache ??= {
      table: this,
      config: this.config,
      get seqs() { return self.#seqs },
      get ids() { return self.#ids },
      tallies: this.#tallies,
      mem: this.#mem,
      dirty: this.#dirty,
      pins: this.#pins,
      live: () => this.#live,
      set: (parts) => {
        if (parts.seqs) this.#seqs = parts.seqs
        if (parts.ids) this.#ids = parts.ids
        if (parts.live !== undefined) this.#live = parts.live
      },
      keep: (seq, row) => this.#keep(seq, row, false),
      forget: (id, seq) => this.#forget(id, seq),
      added: (row, seq) => this.#added(row, seq),
      removed: (row) => this.#removed(row),
      unpin: (row) => this.#pins.unpin(row),
    })
  }

  #patch(id: string, patch: Partial<T>, durable: boolean): T {
    const row = this.get(id)
    if (!row) throw new Error(`no row ${id}`)
    const seq = this.#seqOf(id)!
    // Rows are replaced, not mutated, so a value handed out earlier stays a consistent snapshot.
    const next = { ...row, ...patch }
    this.#pins.unpin(row)
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
    this.#pins.pin(row)
  }

  #forget(id: string, seq: number): void {
    this.#mem.delete(id)
    this.#bySeq.delete(seq)
  }

  #added(row: T, seq: number): void {
    this.#live++
    this.#ids?.add(row.id, seq)
    this.#tallies.add(row, 1)
  }

  #removed(row: T): void {
    this.#live--
    this.#tallies.add(row, -1)
  }
}
