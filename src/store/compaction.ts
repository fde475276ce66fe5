import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { removeQuietly, syncDirectory } from './durable-file.js'
import type { LogTable } from './history-table.js'
import { LogReader } from './log-reader.js'
import type { StateLogFile } from './log-file.js'
import { headerLine } from './state-log.js'

/** Where a compaction can be interrupted (tests fail it at each one: `CompactionOptions.onStep`). */
export const COMPACTION_STEPS = ['copying', 'copied', 'side-written', 'synced', 'renamed', 'checkpointed'] as const
export type CompactionStep = (typeof COMPACTION_STEPS)[number]

class Abandoned extends Error {}

/**
 * Online compaction of the state log, in the background and crash-safe:
 * 1. copy the latest line of every live row into `<log>.compact` (a new generation), a batch of
 *    rows per event-loop turn, while group commits keep appending to the old log; every append
 *    made meanwhile is also kept in a side buffer;
 * 2. in one synchronous step: append the side buffer, fsync (under `fsync` durability), rename the
 *    copy over the log, and point the tables at their new offsets;
 * 3. write a checkpoint of the new generation.
 * The copy leaves out the core document's lines (`doc-log.ts`): step 2 saves the document (with
 * every change so far) just before the rename.
 * Until the rename the old log holds every acknowledged write; after it the new one does (the side
 * buffer is in it). A crash at any step loses nothing: a leftover copy is deleted at open, and a
 * checkpoint of another generation is ignored (a full replay instead).
 */
export async function compactLog(log: StateLogFile, abandoned: () => boolean): Promise<void> {
  const tmp = `${log.path}.compact`
  const step = (name: CompactionStep) => log.options.onStep?.(name)
  const header = headerLine()
  const reader = new LogReader(log.path)
  // New offsets by table and sequence number (typed, so a million rows cost 8 MB here, not 100).
  const moves = new Map<LogTable<{ id: string }>, [Float64Array, Uint32Array]>()
  const batchRows = log.options.batchRows ?? 2000
  log.side = []
  let fd: number | null = openSync(tmp, 'w')
  let pos = 0
  const write = (bytes: Buffer) => {
    for (let done = 0; done < bytes.length;) done += writeSync(fd!, bytes, done, bytes.length - done, pos + done)
    pos += bytes.length
  }
  try {
    write(Buffer.from(header.text))
    let chunk: Buffer[] = []
    let chunkBytes = 0
    let copied = 0
    for (const table of Object.values(log.tables)) {
      const end = table.nextSeq
      const moved = new Float64Array(end).fill(-1)
      const lengths = new Uint32Array(end)
      moves.set(table, [moved, lengths])
      for (let seq = 0; seq < end; seq++) {
        const at = table.located(seq)
        if (!at) continue
        const line = reader.raw(at.offset, at.length, 'forward')
        moved[seq] = pos + chunkBytes
        lengths[seq] = at.length
        chunk.push(line, NEWLINE)
        chunkBytes += line.length + 1
        if (++copied % batchRows === 0) {
          write(Buffer.concat(chunk))
          chunk = []
          chunkBytes = 0
          step('copying')
          await new Promise<void>((resolve) => setImmediate(resolve))
          reader.reopen()
          if (abandoned()) throw new Abandoned('the log was rewritten during the compaction')
        }
      }
    }
    write(Buffer.concat(chunk))
    step('copied')
    // From here on nothing awaits: no group commit can append between these steps.
    if (abandoned()) throw new Abandoned('the log was rewritten during the compaction')
    const side: Array<[LogTable<{ id: string }>, Parameters<LogTable<{ id: string }>['written']>[0], number, number]> = []
    for (const { bytes, placed } of log.side) {
      const base = placed[0]?.offset ?? 0
      const start = pos
      write(bytes)
      for (const p of placed) side.push([p.table, p.row, start + (p.offset - base), p.length])
    }
    step('side-written')
    if (log.durability === 'fsync') fsyncSync(fd)
    closeSync(fd)
    fd = null
    step('synced')
    // The copy holds no doc lines: the document must hold everything the old log's lines said.
    log.document?.save()
    renameSync(tmp, log.path)
    if (log.durability === 'fsync') syncDirectory(dirname(log.path))
    for (const table of Object.values(log.tables)) table.deadBytes = 0
    for (const [table, [moved, lengths]] of moves) {
      // A row removed since its copy (its removal maybe not yet flushed) stays removed.
      for (let seq = 0; seq < moved.length; seq++) if (moved[seq] >= 0 && table.located(seq)) table.relocate(seq, moved[seq], lengths[seq])
    }
    for (const [table, row, offset, length] of side) table.written(row, offset, length)
    log.compacted(pos, header.gen)
    step('renamed')
    log.checkpoint()
    step('checkpointed')
  } catch (error) {
    if (fd !== null) closeSync(fd)
    // A crash would leave the copy behind (open deletes it); an abandoned or failed one (a full
    // disk) goes now, so it does not hold the space the next group commit needs.
    if (error instanceof Abandoned) unlinkSync(tmp)
    else removeQuietly(tmp)
    throw error
  } finally {
    reader.close()
  }
}

const NEWLINE = Buffer.from('\n')
