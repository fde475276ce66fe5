import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { LowSync, MemorySync } from 'lowdb'
import type { Snapshot, Store, StoreMeta, TableName, Tables } from '../domain/ports.js'
import { MemoryTable } from './memory-table.js'
import { TABLE_INDEXES, TABLE_LAYOUT, TABLE_NAMES, defaultMeta, emptySnapshot } from './layout.js'
import type { Durability } from './durable-file.js'
import { DURABILITIES, JsonDocumentFile, appendToFile, replaceFile } from './durable-file.js'
import type { StateLock } from './state-lock.js'
import { lockStateFile } from './state-lock.js'
import { allLogLines, drainLogLines, replayLog } from './state-log.js'

type Doc = Record<string, unknown> & { version: 1; meta: StoreMeta }
type AnyTable = MemoryTable<{ id: string }>

export interface StoreOptions {
  /** State document path; its log lives beside it as `<file>.log`. Omit for memory only. */
  file?: string
  /** What an acknowledged write survives: `process` (default, kill -9) or `fsync` (power loss too). */
  durability?: Durability
}

/**
 * Opens the lowdb-backed store. Doc tables are one compact JSON document replaced atomically
 * (temp file + rename); log tables append JSONL lines. `commit()` is a group commit: every caller
 * waits for the first flush that starts after its call, and one flush serves all requests that
 * changed state in the meantime. A state file has one writer: opening one that a live process
 * holds throws `StateLockedError` (see `state-lock.ts`); `close()` releases it.
 */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const { file, durability = 'process' } = options
  // Checked here too: createSandbox callers pass it without the CLI's choices check.
  if (!DURABILITIES.includes(durability)) throw new Error(`durability must be one of ${DURABILITIES.join(', ')}; got ${String(durability)}`)
  if (!file) return openFiles({ durability }, null)
  await mkdir(dirname(file), { recursive: true })
  const lock = await lockStateFile(file)
  try {
    return await openFiles({ file, durability }, lock)
  } catch (error) {
    await lock.release()
    throw error
  }
}

async function openFiles(options: { file?: string; durability: Durability }, lock: StateLock | null): Promise<Store> {
  const { file, durability } = options
  const logPath = file ? `${file}.log` : null
  const db = new LowSync<Doc>(file ? new JsonDocumentFile<Doc>(file, durability) : new MemorySync<Doc>(), docOf(emptySnapshot()))
  try {
    db.read()
  } catch (error) {
    throw new Error(`State file ${file} is not valid JSON (${(error as Error).message}); move it away or pass --state memory`)
  }

  let meta: StoreMeta = db.data.meta ?? defaultMeta()
  let docDirty = false
  let docTouched = false
  let rewriteLog = false
  const logPending = new Map<TableName, Set<string>>()

  const tables = Object.fromEntries(TABLE_NAMES.map((name) => {
    const indexed = (TABLE_INDEXES[name] ?? []) as Array<'id'>
    return [name, new MemoryTable((id, durable) => onChange(name, id, durable), indexed)]
  })) as unknown as Record<TableName, AnyTable>

  function onChange(name: TableName, id: string, durable: boolean): void {
    if (TABLE_LAYOUT[name] === 'doc') {
      if (durable) docDirty = true
      else docTouched = true
      return
    }
    if (!durable) return
    const ids = logPending.get(name) ?? new Set<string>()
    ids.add(id)
    logPending.set(name, ids)
  }

  for (const name of TABLE_NAMES) {
    if (TABLE_LAYOUT[name] === 'doc') tables[name].load((db.data[name] as Array<{ id: string }>) ?? [])
  }
  // A log with many superseded versions is compacted once at open, never on the write path.
  if (logPath && (await replayLog(logPath, tables)).superseded > 1000) replaceFile(logPath, allLogLines(tables), { durability })

  function snapshot(): Snapshot {
    const rows = Object.fromEntries(TABLE_NAMES.map((name) => [name, [...tables[name].all()]]))
    return { version: 1, meta: structuredClone(meta), ...rows } as unknown as Snapshot
  }

  function flush(): void {
    const writeDoc = docDirty || docTouched
    docDirty = false
    docTouched = false
    const fullLog = rewriteLog
    rewriteLog = false
    const lines = fullLog ? allLogLines(tables) : drainLogLines(tables, logPending)
    try {
      // Another process took the file over (this one stalled past the lock's stale time): never overwrite its state.
      const lost = lock?.lost()
      if (lost) throw new Error(`lost the lock on ${file} (${lost.message}); refusing to write`)
      // Synchronous on purpose: a small document and a few log lines take ≈ 0.5 ms, while each
      // async step (open, write, close, rename) waited for a busy event loop to come round
      // (≈ 3.5 ms per flush under load, bench/README.md), and every waiting request with it.
      if (writeDoc) writeDocument()
      if (logPath && fullLog) replaceFile(logPath, lines, { durability })
      if (logPath && !fullLog && lines) appendToFile(logPath, lines, durability)
    } catch (error) {
      // Keep the change pending so the next commit retries it; the waiting requests see the error.
      docDirty ||= writeDoc
      rewriteLog = true
      throw error
    }
  }

  function writeDocument(): void {
    db.data = docOf(snapshotDocOnly())
    db.write()
  }

  function snapshotDocOnly(): Snapshot {
    const rows = Object.fromEntries(
      TABLE_NAMES.filter((n) => TABLE_LAYOUT[n] === 'doc').map((n) => [n, tables[n].all()]),
    )
    return { version: 1, meta, ...rows } as unknown as Snapshot
  }

  let queued: Promise<void> | null = null
  const pending = () => docDirty || rewriteLog || logPending.size > 0

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
    meta: () => meta,
    setMeta(next) {
      meta = next
      docDirty = true
    },
    commit,
    snapshot,
    replace(next) {
      meta = structuredClone(next.meta)
      for (const name of TABLE_NAMES) tables[name].load((next[name] as Array<{ id: string }>) ?? [])
      logPending.clear()
      docDirty = true
      rewriteLog = true
    },
    async close() {
      if (docTouched) docDirty = true
      try {
        await commit()
      } finally {
        await lock?.release()
      }
    },
  }
}

function docOf(snapshot: Snapshot): Doc {
  const doc: Doc = { version: 1, meta: snapshot.meta }
  for (const name of TABLE_NAMES) if (TABLE_LAYOUT[name] === 'doc') doc[name] = snapshot[name]
  return doc
}
