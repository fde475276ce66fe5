import { readFileSync } from 'node:fs'
import type { StoreMeta } from '../domain/ports.js'
import type { DocRow, RowPatch } from './doc-patch.js'
import { applyPatch } from './doc-patch.js'

/**
 * A change to the core document written as a state-log line (`core-document.ts`). `d` is the
 * document sequence number of the flush that wrote it: the document file records the number it
 * covers (`seq`), so a line with `d` at or below it is already in the document and is skipped.
 * - `{"t":table,"d":n,"r":row}`: the row's current version (inserted or updated);
 * - `{"t":table,"d":n,"id":id,"p":{…},"a":{…}}`: the fields that changed since the row's previous
 *   line or the saved document (`p`, new values; `a`, elements appended to an array; `doc-patch.ts`);
 * - `{"t":table,"d":n,"del":id}`: the row was removed;
 * - `{"d":n,"m":meta}`: the store's meta (world, seed, clock);
 * - `{"d":n,"reset":true}`: every doc table is emptied (a reset or import; its rows follow).
 */
export interface DocLine extends RowPatch {
  d: number
  t?: string
  r?: { id: string }
  id?: string
  del?: string
  m?: StoreMeta
  reset?: true
}

/** The core document as stored: the doc tables, the meta, and the last doc-line sequence number it holds. */
export type Doc = Record<string, unknown> & { version: 1; seq?: number; meta: StoreMeta }

/**
 * Folds doc lines over a document read at open. Lines at or below the document's `seq` never
 * apply (a crash after a new document but before the log lost its old lines leaves such lines);
 * rows keep the order the tables give them (an update keeps a row's place, an insert appends).
 */
export class DocReplay {
  readonly rows = new Map<string, Map<string, { id: string }>>()
  meta: StoreMeta | undefined
  /** The document's own sequence number, and the highest seen in the log. */
  readonly base: number
  highest: number

  constructor(doc: Doc | null, tableNames: readonly string[]) {
    this.base = doc?.seq ?? 0
    this.highest = this.base
    this.meta = doc?.meta
    for (const name of tableNames) {
      const rows = (doc?.[name] as Array<{ id: string }> | undefined) ?? []
      this.rows.set(name, new Map(rows.map((row) => [row.id, row])))
    }
  }

  apply(line: DocLine): void {
    if (line.d > this.highest) this.highest = line.d
    if (line.d <= this.base) return
    if (line.reset) for (const rows of this.rows.values()) rows.clear()
    if (line.m) this.meta = line.m
    const rows = line.t === undefined ? undefined : this.rows.get(line.t)
    if (!rows) return
    if (line.r) rows.set(line.r.id, line.r)
    else if (line.del !== undefined) rows.delete(line.del)
    else if (line.id !== undefined) rows.set(line.id, applyPatch(patchBase(rows, line), line))
    // Skipping a line this version cannot read would open an older state without a word.
    else throw new Error(`state log: doc line ${line.d} for ${line.t} holds no row, removal or patch (written by a newer adops-sandbox?)`)
  }

  /** The folded document (tables as arrays). */
  document(): Doc {
    const doc: Doc = { version: 1, seq: this.highest, meta: this.meta as StoreMeta }
    for (const [name, rows] of this.rows) doc[name] = [...rows.values()]
    return doc
  }
}

/**
 * The core document as a restart would see it: the document file with the log's newer doc lines
 * folded over it. Reads only (a torn last line is skipped, not cut), so it can look at the files
 * of a live store: tests check that an acknowledged change is on disk with it.
 */
export function readDocumentOnDisk(file: string, tableNames: readonly string[]): Doc {
  const text = readIfExists(file)
  const replay = new DocReplay(text === null ? null : (JSON.parse(text) as Doc), tableNames)
  const lines = (readIfExists(`${file}.log`) ?? '').split('\n')
  // The last element is '' after a final newline, or a torn line that was never acknowledged.
  for (const text of lines.slice(0, -1)) {
    const line = JSON.parse(text) as Partial<DocLine>
    if (typeof line.d === 'number') replay.apply(line as DocLine)
  }
  return replay.document()
}

/** The row a patch line was taken against: the writer only patches rows the log or document holds. */
function patchBase(rows: Map<string, { id: string }>, line: DocLine): DocRow {
  const row = rows.get(line.id as string)
  if (!row) throw new Error(`state log: doc line ${line.d} patches ${line.t} row ${line.id}, which neither the document nor an earlier line holds`)
  return row as DocRow
}

function readIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
