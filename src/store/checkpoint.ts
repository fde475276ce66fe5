import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Durability } from './durable-file.js'
import { removeQuietly, syncDirectory } from './durable-file.js'
import type { CheckpointArrays, TableCheckpoint } from './history-table.js'
import { SeqArrays } from './seq-arrays.js'
import type { LogTables } from './state-log.js'

interface CheckpointHead {
  v: 2
  gen: string
  /** Log bytes the checkpoint covers; lines after this are replayed at open. */
  size: number
  /** Bytes of doc lines before `size` (superseded once the document is saved; compaction counts them). */
  docBytes?: number
  tables: Record<string, TableCheckpoint>
}

/**
 * Writes the history tables' indexes (sequence → offset chunks, id index, counts, aggregates,
 * pinned sequence numbers) as `<log>.ckpt`: a 4-byte length, a JSON head padded to 8 bytes, then
 * the typed arrays' bytes, each 8-byte aligned. A resume reads the file once and uses the arrays
 * in place (no copy: fresh memory costs page faults) and replays only the log lines after `size`,
 * so resume time does not grow with the history. It names the log generation it indexes; a
 * mismatch means a full replay. Written straight from the arrays (temp file, fsync under `fsync`
 * durability, rename), so a checkpoint allocates nothing the size of the history. Returns the
 * bytes written.
 */
export function writeCheckpoint(input: { path: string; gen: string; size: number; docBytes: number; tables: LogTables; durability: Durability }): number {
  const head: CheckpointHead = { v: 2, gen: input.gen, size: input.size, docBytes: input.docBytes, tables: {} }
  const arrays: ArrayBufferView[] = []
  for (const [name, table] of Object.entries(input.tables)) {
    const { state, arrays: a } = table.checkpoint()
    head.tables[name] = state
    arrays.push(...a.offsets, ...a.lengths, ...(a.hashes && a.seqs ? [a.hashes, a.seqs] : []))
  }
  const json = Buffer.from(JSON.stringify(head))
  const start = Buffer.alloc(align(4 + json.length), 0x20)
  start.writeUInt32LE(json.length)
  json.copy(start, 4)
  const tmp = `${input.path}.tmp`
  let bytes = 0
  try {
    const fd = openSync(tmp, 'w')
    try {
      for (const part of [start, ...arrays]) {
        writeAll(fd, Buffer.from(part.buffer, part.byteOffset, part.byteLength))
        bytes += part.byteLength
      }
      if (input.durability === 'fsync') fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, input.path)
  } catch (error) {
    removeQuietly(tmp)
    throw error
  }
  if (input.durability === 'fsync') syncDirectory(dirname(input.path))
  return bytes
}

/** Loads a checkpoint into `tables` if it matches the log at `logPath`; returns what it covers and its own size in bytes, or null. */
export function readCheckpoint(path: string, logPath: string, tables: LogTables): { gen: string; size: number; docBytes: number; bytes: number } | null {
  if (!existsSync(path) || !existsSync(logPath)) return null
  let head: CheckpointHead
  let data: Buffer
  try {
    data = readFileSync(path)
    // Typed-array views need aligned offsets; a small file may sit at any offset of Node's pool.
    if (data.byteOffset % 8 !== 0) data = Buffer.from(new Uint8Array(data))
    const length = data.readUInt32LE(0)
    head = JSON.parse(data.toString('utf8', 4, 4 + length)) as CheckpointHead
    let at = data.byteOffset + align(4 + length)
    const take = <A>(make: new (b: ArrayBufferLike, offset: number, length: number) => A, count: number, bytes: number): A => {
      const view = new make(data.buffer, at, count)
      at += count * bytes
      return view
    }
    if (head.v !== 2 || statSync(logPath).size < head.size || logGen(logPath) !== head.gen) return null
    const loaded: Array<[string, TableCheckpoint, CheckpointArrays]> = []
    for (const name of Object.keys(tables)) {
      const state = head.tables[name]
      if (!state) return null
      // Counts kept under another layout (a field added since) would be missing: replay instead.
      if (state.counts.map(([field]) => field).sort().join() !== tables[name].countedFields.sort().join()) return null
      const offsets = Array.from({ length: state.chunks }, () => take(Float64Array, SeqArrays.CHUNK, 8))
      const lengths = Array.from({ length: state.chunks }, () => take(Uint32Array, SeqArrays.CHUNK, 4))
      const slots = state.idSlots
      const ids = slots === null ? { hashes: null, seqs: null } : { hashes: take(Uint32Array, slots, 4), seqs: take(Int32Array, slots, 4) }
      loaded.push([name, state, { offsets, lengths, ...ids }])
    }
    if (at !== data.byteOffset + data.length) return null
    try {
      for (const [name, state, arrays] of loaded) tables[name].restore(state, arrays)
    } catch (error) {
      // Half a checkpoint is worse than none: start the full replay from empty tables.
      for (const table of Object.values(tables)) table.clear()
      throw error
    }
  } catch {
    return null
  }
  return { gen: head.gen, size: head.size, docBytes: head.docBytes ?? 0, bytes: data.length }
}

/** The generation named by the log's header line, or null (no header: a version-1 log). */
export function logGen(logPath: string): string | null {
  const fd = openSync(logPath, 'r')
  try {
    const buf = Buffer.alloc(256)
    const n = readSync(fd, buf, 0, buf.length, 0)
    const nl = buf.subarray(0, n).indexOf(10)
    if (nl < 0) return null
    const line = JSON.parse(buf.toString('utf8', 0, nl)) as { h?: { gen?: string } }
    return line.h?.gen ?? null
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

const align = (n: number) => Math.ceil(n / 8) * 8

function writeAll(fd: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done)
}
