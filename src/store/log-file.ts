import { existsSync, statSync, truncateSync, unlinkSync } from 'node:fs'
import type { Durability } from './durable-file.js'
import { AppendFile, replaceFile } from './durable-file.js'
import type { DirtyRow } from './history-table.js'
import type { LogReader } from './log-reader.js'
import type { LogTables } from './state-log.js'
import type { DocLine } from './doc-log.js'
import type { Placed } from './state-log.js'
import { applyPlaced, headerLine, replayLog, serializeInto } from './state-log.js'
import { LineBytes } from './line-bytes.js'
import { readCheckpoint, writeCheckpoint } from './checkpoint.js'
import { compactLog } from './compaction.js'
import type { CompactionStep } from './compaction.js'

export type { CompactionStep }

/** When the log compacts and checkpoints; `onStep` lets tests fail a compaction at each step. */
export interface CompactionOptions {
  /** Compact once superseded bytes exceed both this (default 8 MiB) … */
  minDeadBytes?: number
  /** … and this share of the log (default 0.5). */
  deadRatio?: number
  /**
   * Write an index checkpoint after this many bytes appended since the last (default 32 MiB), or
   * after `CHECKPOINT_RATIO` times the last checkpoint's size once that is more: the most a resume
   * after a crash replays.
   */
  checkpointBytes?: number
  /** Rows copied per event-loop turn while compacting (default 2000). */
  batchRows?: number
  /** Called at each step of a compaction; a throw abandons it there, leaving the files as a crash would. */
  onStep?: (step: CompactionStep) => void
}

/**
 * A checkpoint rewrites the whole index (≈ 30 bytes per history row), so at a fixed interval its
 * cost per write grew with the history: at a 1 GB log each 32 MiB of appends paid a 33–39 MB
 * checkpoint, 30–110 ms of blocked event loop on this machine's disk (bench/README.md, findings).
 * Waiting for twice the last checkpoint's size keeps what checkpoints write at most half of what
 * the log did, whatever the history's length, for a longer tail to replay after a crash.
 */
const CHECKPOINT_RATIO = 2

type Batch = readonly [string, LogTables[string], DirtyRow<{ id: string }>[]]

/** The core document's side of the log (`core-document.ts`): it takes its lines at open, and is saved before the log may lose them. */
export interface LogDocument {
  replay(line: DocLine): void
  save(): void
}

/**
 * The state log of the history tables: appends each group commit's lines, knows where every line
 * lands, writes index checkpoints so a resume reads only the log's tail, and compacts online
 * (`compaction.ts`) once superseded versions dominate, so its size tracks the live rows. It also
 * carries the core document's changes as doc lines (`doc-log.ts`); the document is saved before
 * every checkpoint and before a compaction drops them, so no doc line before a checkpoint's
 * offset, and none in a replaced log, is newer than the document.
 */
export class StateLogFile {
  size = 0
  gen: string | null = null
  compactions = 0
  /** While a compaction runs, every append is also kept here to replay onto the new file. */
  side: Array<{ bytes: Buffer; placed: Placed[] }> | null = null
  /** The bytes of the flush being appended, reused by every flush. */
  readonly #out = new LineBytes()
  /** Bytes of doc lines in this file: all droppable by a compaction, which saves the document first. */
  docBytes = 0
  #torn: number | null = null
  #checkpointedAt = 0
  /** Bytes of the last checkpoint written or loaded (`CHECKPOINT_RATIO`). */
  #checkpointSize = 0
  #checkpointDue = false
  #running: Promise<void> | null = null
  #abandoned = false
  readonly path: string
  readonly tables: LogTables
  readonly reader: LogReader
  readonly durability: Durability
  readonly options: CompactionOptions
  readonly document: LogDocument | null
  readonly #file: AppendFile

  constructor(init: { path: string; tables: LogTables; reader: LogReader; durability: Durability; options: CompactionOptions; document?: LogDocument }) {
    this.path = init.path
    this.tables = init.tables
    this.reader = init.reader
    this.durability = init.durability
    this.options = init.options
    this.document = init.document ?? null
    this.#file = new AppendFile(init.path, init.durability)
  }

  get checkpointPath(): string {
    return `${this.path}.ckpt`
  }

  /** Loads the checkpoint that matches the log (if any) and replays the lines after it; leftovers of a crash go. */
  open(): void {
    for (const leftover of [`${this.path}.compact`, `${this.checkpointPath}.tmp`]) if (existsSync(leftover)) unlinkSync(leftover)
    const checkpoint = readCheckpoint(this.checkpointPath, this.path, this.tables)
    const from = checkpoint?.size ?? 0
    this.docBytes = checkpoint?.docBytes ?? 0
    const onDoc = (line: DocLine, length: number) => {
      this.docBytes += length + 1
      this.document?.replay(line)
    }
    const replayed = replayLog(this.path, this.tables, { from, onDoc })
    this.reader.reopen()
    this.size = replayed.size
    this.gen = checkpoint?.gen ?? replayed.gen
    this.#checkpointedAt = checkpoint ? from : 0
    this.#checkpointSize = checkpoint?.bytes ?? 0
  }

  /**
   * A group commit failed to reach the disk (ENOSPC, EIO, EACCES): cuts off whatever part of its
   * text an append left, so the next open (and `open()` now) replays only acknowledged lines, and
   * drops a running compaction (its offsets would name rows the store is about to reload).
   */
  discardFailedAppend(): void {
    this.abandonCompaction()
    this.#file.close()
    if (this.#torn !== null && existsSync(this.path)) truncateSync(this.path, this.#torn)
    this.#torn = null
    this.#checkpointDue = false
  }

  /** Called once the store has loaded everything `open` replayed (a compaction saves the document). */
  opened(): void {
    // A version-1 log (no generation header) cannot be checkpointed: rewrite it once, in the background.
    if (this.gen === null && this.size > 0) void this.compact().catch(() => undefined)
  }

  /** Appends one group commit's row changes, then its doc lines (`docLines`), in one write. */
  append(batches: readonly Batch[], docLines: readonly string[] = []): void {
    if (this.#torn !== null) {
      this.#file.close()
      truncateSync(this.path, this.#torn)
      this.#torn = null
    }
    const out = this.#out
    out.reset()
    const header = this.size === 0 ? headerLine() : null
    if (header) out.append(header.text)
    // Where the row lines begin, in `out` and in the log.
    const rowsAt = out.length
    const start = this.size + rowsAt
    const { bytes, placed } = serializeInto(batches, start, out)
    if (bytes === 0 && docLines.length === 0) return
    for (const line of docLines) out.line(line)
    try {
      this.#file.append(out.bytes)
    } catch (error) {
      // Part of the text may be in the file: cut it off before the next append.
      this.#torn = this.size
      throw error
    }
    if (header) this.gen = header.gen
    this.size += out.length
    this.docBytes += out.length - rowsAt - bytes
    this.reader.appended(start)
    applyPlaced(placed)
    // Doc lines stay out of a running compaction's copy: it saves the document before its rename.
    if (bytes > 0) this.side?.push({ bytes: out.copy(rowsAt, rowsAt + bytes), placed })
  }

  /** Replaces the whole log with these rows and doc lines (reset, import): a new generation. */
  rewrite(batches: readonly Batch[], docLines: readonly string[] = []): void {
    this.abandonCompaction()
    const header = headerLine()
    const out = new LineBytes()
    out.append(header.text)
    const start = out.length
    const { bytes, placed } = serializeInto(batches, start, out)
    for (const line of docLines) out.line(line)
    this.#file.close()
    replaceFile(this.path, out.bytes, { durability: this.durability })
    this.#torn = null
    this.gen = header.gen
    this.docBytes = out.length - start - bytes
    this.size = out.length
    this.reader.reopen()
    for (const table of Object.values(this.tables)) table.deadBytes = 0
    applyPlaced(placed)
    this.checkpointQuietly()
  }

  /** After each flush: start a background compaction or write a checkpoint when due. */
  afterFlush(): void {
    if (this.#running) return
    const dead = Object.values(this.tables).reduce((sum, t) => sum + t.deadBytes, this.docBytes)
    if (dead > (this.options.minDeadBytes ?? 8 << 20) && dead > (this.options.deadRatio ?? 0.5) * this.size) {
      void this.compact().catch(() => undefined)
      return
    }
    if (this.#checkpointDue || this.size - this.#checkpointedAt > this.checkpointInterval) this.checkpointQuietly()
  }

  /**
   * A checkpoint after the group commit is written: the commit is acknowledged whatever happens
   * here, so a failure (a full disk) only means the next flush tries again (its temp file is gone).
   */
  checkpointQuietly(): void {
    try {
      this.checkpoint()
    } catch {
      this.#checkpointDue = true
    }
  }

  /** Bytes appended after a checkpoint before the next one is written (`CHECKPOINT_RATIO`). */
  get checkpointInterval(): number {
    return Math.max(this.options.checkpointBytes ?? 32 << 20, CHECKPOINT_RATIO * this.#checkpointSize)
  }

  /** Compacts now (or joins the running compaction). Rejects if a step failed; the old log then stays in use. */
  compact(): Promise<void> {
    this.#abandoned = false
    this.#running ??= compactLog(this, () => this.#abandoned).finally(() => {
      this.#running = null
      this.side = null
    })
    return this.#running
  }

  /** A full rewrite replaces the log under a running compaction: it must not rename its copy over it. */
  abandonCompaction(): void {
    if (this.#running) this.#abandoned = true
  }

  /** Called by a compaction once the new file is in place. */
  compacted(size: number, gen: string): void {
    this.size = size
    this.gen = gen
    this.#torn = null
    this.docBytes = 0
    this.compactions++
    // The descriptor kept for appends names the file the rename replaced.
    this.#file.close()
    this.reader.reopen()
  }

  /** Writes the index checkpoint for the log as it is now (atomic: temp file and rename). */
  checkpoint(): void {
    if (!this.gen || this.#torn !== null) return
    // Rows not yet in the log would be counted twice when their lines are replayed: wait for the flush.
    if (Object.values(this.tables).some((t) => t.hasDirty)) {
      this.#checkpointDue = true
      return
    }
    this.#checkpointDue = false
    // The checkpoint lets the next open skip every line before `size`: their doc lines must be in the document.
    this.document?.save()
    this.#checkpointSize = writeCheckpoint({ path: this.checkpointPath, gen: this.gen, size: this.size, docBytes: this.docBytes, tables: this.tables, durability: this.durability })
    this.#checkpointedAt = this.size
  }

  /** Waits for a running compaction (its failure is not the closer's). */
  async settle(): Promise<void> {
    await this.#running?.catch(() => undefined)
  }

  close(): void {
    if (this.size > 0 && existsSync(this.path) && statSync(this.path).size === this.size) this.checkpoint()
    this.#file.close()
    this.reader.close()
  }
}
