import { closeSync, fstatSync, openSync, readSync, truncateSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import type { DirtyRow, LogTable } from './history-table.js'
import type { DocLine } from './doc-log.js'
import type { LineBytes } from './line-bytes.js'

type AnyLogTable = LogTable<{ id: string }>
export type LogTables = Record<string, AnyLogTable>

/** A row change placed in a block of log text: where its line starts and how long it is. */
export interface Placed {
  table: AnyLogTable
  row: DirtyRow<{ id: string }>
  offset: number
  length: number
}

/** The log's first line: `{"h":{"v":2,"gen":"…"}}`; `gen` names one file generation (checkpoints match on it). */
export function headerLine(gen: string = randomBytes(8).toString('hex')): { text: string; gen: string } {
  return { text: JSON.stringify({ h: { v: 2, gen } }) + '\n', gen }
}

/**
 * Writes row changes as JSONL (`{"t":table,"s":seq,"r":row}` or `{"t","s","del":id}`) into `out`,
 * whose first byte will sit at byte `start` of the log, and says where each line will lie once
 * `out` is appended there. Returns the bytes written.
 */
export function serializeInto(batches: ReadonlyArray<readonly [string, AnyLogTable, DirtyRow<{ id: string }>[]]>, start: number, out: LineBytes): { bytes: number; placed: Placed[] } {
  const from = out.length
  const placed: Placed[] = []
  for (const [name, table, rows] of batches) {
    for (const row of rows) {
      const offset = start + (out.length - from)
      const length = out.line(JSON.stringify(row.row ? { t: name, s: row.seq, r: row.row } : { t: name, s: row.seq, del: row.id }))
      placed.push({ table, row, offset, length })
    }
  }
  return { bytes: out.length - from, placed }
}

export function applyPlaced(placed: Placed[]): void {
  for (const p of placed) p.table.written(p.row, p.offset, p.length)
}

interface LogLine {
  t?: string
  s?: number
  /** A doc-table line (`doc-log.ts`) carries its document sequence number instead of `s`. */
  d?: number
  r?: { id: string }
  del?: string
  h?: { v: number; gen: string }
}

/** Where a replay starts (`from`, a byte offset) and who takes the core document's lines. */
export interface ReplayOptions {
  from?: number
  /** Takes each doc-table line and its length in bytes (newline excluded). */
  onDoc?: (line: DocLine, length: number) => void
}

/**
 * Folds the JSONL log into `tables` from byte `from`, streaming it in blocks (a log can exceed the
 * largest string V8 makes). The latest version of each row wins; doc-table lines go to `onDoc`. A
 * torn last line (a crash mid-append, never acknowledged) is cut off so the next append starts on
 * a clean line. Lines of the version-1 format (no `s`) get sequence numbers in order of first
 * appearance.
 */
export function replayLog(path: string, tables: LogTables, options: ReplayOptions = {}): { size: number; gen: string | null } {
  const { from = 0, onDoc } = options
  let fd: number
  try {
    fd = openSync(path, 'r+')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { size: 0, gen: null }
    throw error
  }
  const legacy = new Map<string, Map<string, number>>()
  let gen: string | null = null
  let lineNo = 0
  try {
    const size = fstatSync(fd).size
    let carry = Buffer.alloc(0)
    let carryAt = from
    for (let pos = from; pos < size;) {
      const chunk = Buffer.allocUnsafe(Math.min(4 << 20, size - pos))
      const n = readSync(fd, chunk, 0, chunk.length, pos)
      pos += n
      const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n)
      let start = 0
      for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
        lineNo++
        if (nl > start) {
          const entry = parseLine(buf.toString('utf8', start, nl), path, lineNo)
          if (entry.h) gen = entry.h.gen
          else if (entry.d !== undefined) onDoc?.(entry as DocLine, nl - start)
          else fold(entry, tables, legacy, { offset: carryAt + start, length: nl - start })
        }
        start = nl + 1
      }
      carry = buf.subarray(start)
      carryAt += start
    }
    if (carry.length) {
      // The last line has no newline: whole (an old writer) or torn (a crash mid-append).
      let entry: LogLine | null = null
      try {
        entry = JSON.parse(carry.toString('utf8')) as LogLine
      } catch {
        truncateSync(path, carryAt)
        return { size: carryAt, gen }
      }
      if (entry.d !== undefined) onDoc?.(entry as DocLine, carry.length)
      else if (!entry.h) fold(entry, tables, legacy, { offset: carryAt, length: carry.length })
      writeSync(fd, '\n', size)
      return { size: size + 1, gen }
    }
    return { size, gen }
  } finally {
    closeSync(fd)
  }
}

function parseLine(text: string, path: string, lineNo: number): LogLine {
  try {
    return JSON.parse(text) as LogLine
  } catch {
    throw new Error(`${path}:${lineNo}: corrupt state log line`)
  }
}

function fold(entry: LogLine, tables: LogTables, legacy: Map<string, Map<string, number>>, at: { offset: number; length: number }): void {
  const table = entry.t ? tables[entry.t] : undefined
  if (!table) return
  let seq = entry.s
  if (seq === undefined) {
    const id = entry.r?.id ?? entry.del
    if (!id) return
    const seqs = legacy.get(entry.t!) ?? new Map<string, number>()
    legacy.set(entry.t!, seqs)
    seq = seqs.get(id) ?? table.nextSeq
    seqs.set(id, seq)
  }
  table.replay({ s: seq, ...(entry.r ? { r: entry.r } : { del: entry.del }) }, at.offset, at.length)
}
