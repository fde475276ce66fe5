import { LowSync, MemorySync } from 'lowdb'
import type { StoreMeta } from '../domain/ports.js'
import type { MemoryTable } from './memory-table.js'
import type { Durability } from './durable-file.js'
import { JsonDocumentFile } from './durable-file.js'
import type { Doc } from './doc-log.js'
import { DocReplay } from './doc-log.js'
import type { DocRow } from './doc-patch.js'
import { patchOf, WHOLE_ROW } from './doc-patch.js'

type DocTable = MemoryTable<{ id: string }>

/** Doc-line characters (bytes, for ASCII text) appended since the document was last saved past which a flush saves it instead. */
export const DOC_LINE_BYTES = 1 << 20

export interface CoreDocumentOptions {
  /** The document's path; omit for memory state (nothing is ever written). */
  file?: string
  durability: Durability
  /** The doc tables by name, in document order. */
  tables: Record<string, DocTable>
  meta: StoreMeta
  /** Overrides `DOC_LINE_BYTES` (tests). */
  lineBytes?: number
  /** Throws when this process may no longer write the files (it lost the state lock). */
  guard: () => void
}

/** What changed since the last flush: rows by table, the meta, a reset, and whether any of it is durable. */
type Pending = { dirty: Map<string, Set<string>>; meta: boolean; reset: boolean; durable: boolean }

/** One flush's part of the document: lines for the state log (maybe none, no newlines), and how to undo taking them. */
export interface DocFlush {
  lines: string[]
  requeue(): void
}

/**
 * The core document (doc tables and meta): one lowdb JSON document, saved whole only at
 * checkpoints, compactions, close, and once the doc lines appended since the last save pass
 * `lineBytes`. Between saves a flush appends each changed row (and the meta) as a doc line
 * (`doc-log.ts`) to the state log, in the same write as the history rows. Every flush that
 * writes doc lines numbers them with the next sequence number; a save records the highest
 * number given so far as the document's `seq`, and at open only lines above it are replayed.
 */
export class CoreDocument {
  meta: StoreMeta
  readonly #db: LowSync<Doc>
  readonly #options: CoreDocumentOptions
  /** Highest sequence number given to doc lines, and the one the document file holds. */
  #seq = 0
  #savedSeq = 0
  /** Any change (durable or not) since the last save. */
  #changed = false
  /** A durable change waits for a flush (non-durable ones ride along with the next). */
  #durable = false
  #dirty = new Map<string, Set<string>>()
  #metaDirty = false
  #reset = false
  #lineBytes = 0
  /**
   * Each doc row as the files hold it (the document, or its last doc line): a flush writes only
   * what changed since (`doc-patch.ts`). Rows of a flush that failed are forgotten, so their next
   * line is whole; a save makes every current row the base.
   */
  #bases = new Map<string, Map<string, DocRow>>()

  constructor(options: CoreDocumentOptions) {
    this.#options = options
    this.meta = options.meta
    const { file, durability } = options
    this.#db = new LowSync<Doc>(file ? new JsonDocumentFile<Doc>(file, durability) : new MemorySync<Doc>(), this.#docOf(0))
  }

  /** Reads the document file; the caller folds the log's doc lines into the result, then calls `load`. */
  read(): DocReplay {
    try {
      this.#db.read()
    } catch (error) {
      throw new Error(`State file ${this.#options.file} is not valid JSON (${(error as Error).message}); move it away or pass --state memory`)
    }
    return new DocReplay(this.#db.data, Object.keys(this.#options.tables))
  }

  /** Fills the tables and meta from the folded document; lines newer than the file leave it behind. */
  load(replay: DocReplay): void {
    for (const [name, table] of Object.entries(this.#options.tables)) table.load([...(replay.rows.get(name)?.values() ?? [])])
    this.meta = replay.meta ?? this.meta
    this.#seq = replay.highest
    this.#savedSeq = replay.base
    this.#baseAll()
  }

  /** Forgets every change not yet written (a failed flush): the store reloads the files next. */
  discard(): void {
    this.#detach()
    this.#changed = false
  }

  /** A doc-table row changed (`durable`: it must be on disk before the change is acknowledged). */
  changed(name: string, id: string, durable: boolean): void {
    let ids = this.#dirty.get(name)
    if (!ids) this.#dirty.set(name, (ids = new Set()))
    ids.add(id)
    this.#changed = true
    if (durable) this.#durable = true
  }

  setMeta(meta: StoreMeta): void {
    this.meta = meta
    this.#metaDirty = true
    this.#changed = true
    this.#durable = true
  }

  /** Every table was reloaded (reset, import): the next flush writes them all after a reset line. */
  replaced(meta: StoreMeta): void {
    this.meta = meta
    this.#dirty.clear()
    this.#reset = true
    this.#metaDirty = true
    this.#changed = true
    this.#durable = true
  }

  /** A durable change waits for a flush. */
  get pending(): boolean {
    return this.#durable
  }

  /** Enough doc lines since the last save that this flush should save the document instead. */
  get saveDue(): boolean {
    return !this.#reset && this.#lineBytes > (this.#options.lineBytes ?? DOC_LINE_BYTES)
  }

  /** Takes this flush's doc lines (everything changed since the last flush) under a new sequence number. */
  take(): DocFlush {
    const taken = this.#detach()
    const { dirty, meta, reset } = taken
    const requeue = () => this.#requeue(taken)
    if (!reset && !meta && dirty.size === 0) return { lines: [], requeue }
    const d = ++this.#seq
    const lines: string[] = reset ? [JSON.stringify({ d, reset: true })] : []
    if (meta) lines.push(JSON.stringify({ d, m: this.meta }))
    if (reset) this.#bases.clear()
    for (const [name, table] of Object.entries(this.#options.tables)) {
      const ids = reset ? table.all().map((row) => row.id) : dirty.get(name)
      for (const id of ids ?? []) {
        const line = this.#lineOf(name, d, id, table.get(id) as DocRow | undefined)
        if (line) lines.push(line)
      }
    }
    for (const line of lines) this.#lineBytes += line.length + 1
    return { lines, requeue }
  }

  /** Writes the document whole (temp file + rename) if anything changed since the last save. */
  save(): void {
    if (!this.#options.file || (this.#seq === this.#savedSeq && !this.#changed)) return
    this.#options.guard()
    this.#db.data = this.#docOf(this.#seq)
    this.#db.write()
    this.#baseAll()
    this.#savedSeq = this.#seq
    this.#changed = false
    this.#lineBytes = 0
  }

  /** Saves instead of appending lines (`saveDue`): every pending change is in the saved document. */
  saveForFlush(): DocFlush {
    this.save()
    const taken = this.#detach()
    return { lines: [], requeue: () => this.#requeue(taken) }
  }

  /** Hands over what changed since the last flush and starts afresh; `#requeue` puts it back. */
  #detach(): Pending {
    const taken = { dirty: this.#dirty, meta: this.#metaDirty, reset: this.#reset, durable: this.#durable }
    this.#dirty = new Map()
    this.#metaDirty = this.#reset = this.#durable = false
    return taken
  }

  /** The row's doc line (whole, a patch against its base, or none when nothing changed); the row becomes its base. */
  #lineOf(name: string, d: number, id: string, row: DocRow | undefined): string | null {
    let bases = this.#bases.get(name)
    if (!bases) this.#bases.set(name, (bases = new Map()))
    const base = bases.get(id)
    if (!row) {
      bases.delete(id)
      return JSON.stringify({ t: name, d, del: id })
    }
    bases.set(id, row)
    const patch = base ? patchOf(base, row) : WHOLE_ROW
    if (patch === null) return null
    return JSON.stringify(patch === WHOLE_ROW ? { t: name, d, r: row } : { t: name, d, id, p: patch.p, a: patch.a })
  }

  /** Every current row is what the files hold (after a load or a save). */
  #baseAll(): void {
    for (const [name, table] of Object.entries(this.#options.tables)) this.#bases.set(name, new Map(table.all().map((row) => [row.id, row as DocRow])))
  }

  #requeue(taken: Pending): void {
    if (taken.reset) this.#bases.clear()
    for (const [name, ids] of taken.dirty) {
      for (const id of ids) {
        // Its line may not be on disk: the next one is whole.
        this.#bases.get(name)?.delete(id)
        this.changed(name, id, false)
      }
    }
    this.#metaDirty ||= taken.meta
    this.#reset ||= taken.reset
    this.#durable ||= taken.durable
    this.#changed = true
  }

  #docOf(seq: number): Doc {
    const doc: Doc = { version: 1, seq, meta: this.meta }
    for (const [name, table] of Object.entries(this.#options.tables)) doc[name] = table.all()
    return doc
  }
}
