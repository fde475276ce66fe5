import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import type { Durability } from './durable-file.js'
import { replaceFile } from './durable-file.js'
import type { TableCheckpoint } from './history-table.js'
import type { LogTables } from './state-log.js'

interface CheckpointHead {
  v: 1
  gen: string
  /** Log bytes the checkpoint covers; lines after this are replayed at open. */
  size: number
  tables: Record<string, TableCheckpoint & { blobs: number[] }>
}

/**
 * Writes the history tables' indexes (sequence → offset arrays, id index, counts, aggregates,
 * pinned sequence numbers) as `<log>.ckpt`: a 4-byte length, a JSON head, then the arrays' bytes.
 * A resume loads it and replays only the log lines after `size`, so resume time does not grow
 * with the history. It names the log generation it indexes; a mismatch means a full replay.
 */
export function writeCheckpoint(input: { path: string; gen: string; size: number; tables: LogTables; durability: Durability }): void {
  const head: CheckpointHead = { v: 1, gen: input.gen, size: input.size, tables: {} }
  const parts: Buffer[] = []
  for (const [name, table] of Object.entries(input.tables)) {
    const { state, blobs } = table.checkpoint()
    head.tables[name] = { ...state, blobs: blobs.map((b) => b.byteLength) }
    for (const blob of blobs) parts.push(Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength))
  }
  const json = Buffer.from(JSON.stringify(head))
  const length = Buffer.alloc(4)
  length.writeUInt32LE(json.length)
  replaceFile(input.path, Buffer.concat([length, json, ...parts]), { durability: input.durability })
}

/** Loads a checkpoint into `tables` if it matches the log at `logPath`; returns what it covers, or null. */
export function readCheckpoint(path: string, logPath: string, tables: LogTables): { gen: string; size: number } | null {
  if (!existsSync(path) || !existsSync(logPath)) return null
  let head: CheckpointHead
  let data: Buffer
  try {
    data = readFileSync(path)
    const length = data.readUInt32LE(0)
    head = JSON.parse(data.toString('utf8', 4, 4 + length)) as CheckpointHead
    data = data.subarray(4 + length)
  } catch {
    return null
  }
  if (head.v !== 1 || statSync(logPath).size < head.size || logGen(logPath) !== head.gen) return null
  let at = 0
  for (const [name, table] of Object.entries(tables)) {
    const state = head.tables[name]
    if (!state) return null
    const blobs = state.blobs.map((bytes) => data.subarray(at, (at += bytes)))
    table.restore(state, blobs)
  }
  return { gen: head.gen, size: head.size }
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
