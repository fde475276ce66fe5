import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Snapshot, Store, TableName, Tables } from '../domain/ports.js'
import { SandboxError } from '../domain/errors.js'
import { MemoryTable } from './memory-table.js'
import { TABLE_INDEXES, TABLE_LAYOUT, TABLE_NAMES, defaultMeta } from './layout.js'
import type { Durability } from './durable-file.js'
import { DURABILITIES } from './durable-file.js'
import { CoreDocument } from './core-document.js'
import type { DocFlush } from './core-document.js'
import type { DocLine } from './doc-log.js'
import type { StateLock } from './state-lock.js'
import { lockStateFile } from './state-lock.js'
import type { LogTables } from './state-log.js'
import { LogTable } from './history-table.js'
import { HISTORY_CONFIG } from './history-layout.js'
import type { HistoryConfig } from './history-layout.js'
import { LogReader } from './log-reader.js'
import type { CompactionOptions } from './log-file.js'
import { StateLogFile } from './log-file.js'
import { checkHistory } from './state-history.js'

type AnyTable = MemoryTable<{ id: string }> | LogTable<{ id: string }>

export interface StoreOptions {
  /** State document path; its log lives beside it as `<file>.log`. Omit for memory only. */
  file?: string
  /** What an acknowledged write survives: `process` (default, kill -9) or `fsync` (power loss too). */
  durability?: Durability
  /** When the state log compacts online, and failure points for tests (`compaction.ts`). */
  compaction?: CompactionOptions
  /** Rows each history table keeps in memory besides pinned and unflushed ones (tests). */
  historyWindow?: number
  /** Doc-line bytes between saves of the core document (default `DOC_LINE_BYTES`; tests). */
  docLineBytes?: number
  /**
   * Open even when the state log's history is gone (`serve --reset`: the caller replaces the
   * state anyway). Otherwise such a file throws `StateHistoryMissingError`.
   */
  discardLostHistory?: boolean
}

/** The store, with its state log when it has one (tests and the bench wait for compactions on it). */
export type FileStore = Store & {
  history?: StateLogFile
  /** Records the base URL of the sandbox holding this state file beside its lock, for a refused second start. */
  announce(url: string): void
}

/**
 * Opens the lowdb-backed store. Doc tables are one compact JSON document (`core-document.ts`),
 * saved whole (temp file + rename) at checkpoints, compactions and close; in between, their
 * changed rows are appended as doc lines to the state log, beside the log tables' JSONL lines.
 * `commit()` is a group commit: every caller waits for the first flush that starts after its
 * call, and one flush (one append) serves all requests that changed state in the meantime. A state file has one writer: opening one that a live process
 * holds throws `StateLockedError` (see `state-lock.ts`); `close()` releases it.
 */
export async function openStore(options: StoreOptions = {}): Promise<FileStore> {
  const { file, durability = 'process' } = options
  // Checked here too: createSandbox callers pass it without the CLI's choices check.
  if (!DURABILITIES.includes(durability)) throw new Error(`durability must be one of ${DURABILITIES.join(', ')}; got ${String(durability)}`)
  if (!file) return openFiles({ durability, ...options }, null)
  await mkdir(dirname(file), { recursive: true })
  const lock = await lockStateFile(file)
  try {
    return await openFiles({ ...options, file, durability }, lock)
  } catch (error) {
    await lock.release()
    throw error
  }
}

async function openFiles(options: StoreOptions & { durability: Durability }, lock: StateLock | null): Promise<FileStore> {
  const { file, durability } = options
  const logPath = file ? `${file}.log` : null
  const reader = logPath ? new LogReader(logPath) : null
  let rewriteLog = false
  let logPending = false

  const tables = Object.fromEntries(TABLE_NAMES.map((name) => {
    const onTableChange = (id: string, durable: boolean) => onChange(name, id, durable)
    if (TABLE_LAYOUT[name] === 'log') {
      const config = HISTORY_CONFIG[name as keyof typeof HISTORY_CONFIG] as HistoryConfig<{ id: string }>
      return [name, new LogTable(name, config, onTableChange, reader, options.historyWindow)]
    }
    const indexed = (TABLE_INDEXES[name] ?? []) as Array<'id'>
    return [name, new MemoryTable(onTableChange, indexed)]
  })) as unknown as Record<TableName, AnyTable>
  const logTables = Object.fromEntries(TABLE_NAMES.filter((n) => TABLE_LAYOUT[n] === 'log').map((n) => [n, tables[n]])) as LogTables
  const docTables = Object.fromEntries(TABLE_NAMES.filter((n) => TABLE_LAYOUT[n] === 'doc').map((n) => [n, tables[n]])) as Record<string, MemoryTable<{ id: string }>>

  // Another process took the file over (this one stalled past the lock's stale time): never overwrite its state.
  const guard = () => {
    const lost = lock?.lost()
    if (lost) throw Object.assign(new Error(`lost the lock on ${file} (${lost.message}); refusing to write`), { lockLost: true })
  }
  const doc = new CoreDocument({ file, durability, tables: docTables, meta: defaultMeta(), lineBytes: options.docLineBytes, guard })

  function onChange(name: TableName, id: string, durable: boolean): void {
    if (TABLE_LAYOUT[name] === 'doc') doc.changed(name, id, durable)
    else if (durable) logPending = true
  }

  let replay = doc.read()
  if (file && !options.discardLostHistory) checkHistory(file, replay.base)
  const document = { replay: (line: DocLine) => replay.apply(line), save: () => doc.save() }
  const log = logPath && reader ? new StateLogFile({ path: logPath, tables: logTables, reader, durability, options: options.compaction ?? {}, document }) : null
  log?.open()
  doc.load(replay)
  log?.opened()

  /**
   * A group commit could not be written: memory goes back to what the files hold (every
   * acknowledged write, none of the failed batch), so the refused writes are not applied now and
   * cannot reach the disk with a later flush (issue 36). While that reload itself fails (the files
   * cannot be read), `unreadable` keeps every later commit refused.
   */
  let unreadable: unknown = null
  function reloadFromFiles(): void {
    try {
      log?.discardFailedAppend()
      doc.discard()
      for (const table of Object.values(logTables)) table.clear()
      replay = doc.read()
      log?.open()
      doc.load(replay)
      rewriteLog = false
      logPending = false
      unreadable = null
    } catch (error) {
      unreadable = error
    }
  }

  function snapshot(): Snapshot {
    const rows = Object.fromEntries(TABLE_NAMES.map((name) => [name, [...tables[name].all()]]))
    return { version: 1, meta: structuredClone(doc.meta), ...rows } as unknown as Snapshot
  }

  function flush(): void {
    if (unreadable) reloadFromFiles()
    if (unreadable) throw storageUnavailable(unreadable)
    // Another process holds the file now: keep the change pending and refuse (500), as before.
    guard()
    const fullLog = rewriteLog
    rewriteLog = false
    logPending = false
    const batches = Object.entries(logTables).map(([name, table]) => [name, table, fullLog ? table.takeAll() : table.takeDirty()] as const)
    let docPart: DocFlush | null = null
    try {
      // Synchronous on purpose: a few log lines take ≈ 0.1 ms, while each async step (open, write,
      // close, rename) waited for a busy event loop to come round (≈ 3.5 ms per flush under load,
      // bench/README.md), and every waiting request with it. The document itself is saved only
      // when its lines since the last save pass a bound (or at checkpoints, compactions, close).
      docPart = doc.saveDue ? doc.saveForFlush() : doc.take()
      if (log && fullLog) log.rewrite(batches, docPart.lines)
      else if (log) log.append(batches, docPart.lines)
    } catch (error) {
      if (isLockLoss(error)) {
        // Keep the change pending: this process may no longer write, and says so on every commit.
        docPart?.requeue()
        if (fullLog) rewriteLog = true
        else for (const [, table, rows] of batches) table.requeue(rows)
        logPending ||= !fullLog && batches.some(([, , rows]) => rows.length > 0)
        throw error
      }
      // A full or failing disk: every request of this batch is refused, and none of it stays.
      reloadFromFiles()
      throw storageUnavailable(error)
    }
    for (const [, table] of batches) table.trim()
    log?.afterFlush()
  }

  let queued: Promise<void> | null = null
  const pending = () => doc.pending || rewriteLog || logPending

  function commit(): Promise<void> {
    if (!file || !pending()) return Promise.resolve()
    // Wait one macrotask so every request of this event-loop turn shares the flush.
    queued ??= new Promise<void>((r) => setImmediate(r)).then(() => {
      queued = null
      flush()
    })
    return queued
  }

  return {
    ...(tables as unknown as Tables),
    meta: () => doc.meta,
    setMeta: (next) => doc.setMeta(next),
    commit,
    snapshot,
    replace(next) {
      for (const name of TABLE_NAMES) tables[name].load((next[name] as Array<{ id: string }>) ?? [])
      doc.replaced(structuredClone(next.meta))
      log?.abandonCompaction()
      logPending = false
      rewriteLog = true
    },
    announce: (url: string) => lock?.announce(url),
    async close() {
      try {
        await log?.settle()
        await commit()
        // The document holds every change (touches too) when a store closes: the next open replays no doc lines.
        doc.save()
        log?.close()
      } finally {
        await lock?.release()
      }
    },
    ...(log ? { history: log } : {}),
  } as FileStore
}

/** Seconds a client is told to wait after a storage failure before it retries. */
export const STORAGE_RETRY_AFTER_S = 5

/** The refusal every request of a failed group commit gets: 503 with `Retry-After` (issue 36). */
function storageUnavailable(cause: unknown): SandboxError {
  const code = (cause as NodeJS.ErrnoException | null)?.code
  const reason = typeof code === 'string' ? code : 'write failed'
  return new SandboxError('STORAGE_UNAVAILABLE', { reason, retry_after: STORAGE_RETRY_AFTER_S }, { 'Retry-After': String(STORAGE_RETRY_AFTER_S) })
}

function isLockLoss(error: unknown): boolean {
  return (error as { lockLost?: boolean } | null)?.lockLost === true
}
