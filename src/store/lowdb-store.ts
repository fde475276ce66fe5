import { appendFileSync, renameSync, writeFileSync } from 'node:fs'
import { appendFile, mkdir, readFile, truncate } from 'node:fs/promises'
import { dirname } from 'node:path'
import { LowSync, MemorySync } from 'lowdb'
import { DataFileSync } from 'lowdb/node'
import type { Snapshot, Store, StoreMeta, TableName, Tables } from '../domain/ports.js'
import { MemoryTable } from './memory-table.js'
import { TABLE_INDEXES, TABLE_LAYOUT, TABLE_NAMES, defaultMeta, emptySnapshot } from './layout.js'

type Doc = Record<string, unknown> & { version: 1; meta: StoreMeta }
type AnyTable = MemoryTable<{ id: string }>

export interface StoreOptions {
  /** State document path; its log lives beside it as `<file>.log`. Omit for memory only. */
  file?: string
}

/**
 * Opens the lowdb-backed store. Doc tables are one compact JSON document written atomically by
 * lowdb (`DataFileSync`: temp file + rename); log tables append JSONL lines. `commit()` is a group
 * commit: every caller waits for the first flush that starts after its call, and one flush serves
 * all requests that changed state in the meantime.
 */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const { file } = options
  const logPath = file ? `${file}.log` : null
  if (file) await mkdir(dirname(file), { recursive: true })
  const db = new LowSync<Doc>(
    file ? new DataFileSync<Doc>(file, { parse: JSON.parse, stringify: (d) => JSON.stringify(d) }) : new MemorySync<Doc>(),
    docOf(emptySnapshot()),
  )
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
  if (logPath && (await replayLog(logPath, tables)).superseded > 1000) atomicWriteSync(logPath, allLogLines(tables))

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
      // Synchronous on purpose: a small document and a few log lines take ≈ 0.5 ms, while each
      // async step (open, write, close, rename) waited for a busy event loop to come round
      // (≈ 3.5 ms per flush under load, bench/README.md), and every waiting request with it.
      if (writeDoc) writeDocument()
      if (logPath && fullLog) atomicWriteSync(logPath, lines)
      if (logPath && !fullLog && lines) appendFileSync(logPath, lines)
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
      await commit()
    },
  }
}

function docOf(snapshot: Snapshot): Doc {
  const doc: Doc = { version: 1, meta: snapshot.meta }
  for (const name of TABLE_NAMES) if (TABLE_LAYOUT[name] === 'doc') doc[name] = snapshot[name]
  return doc
}

function drainLogLines(tables: Record<TableName, AnyTable>, pending: Map<TableName, Set<string>>): string {
  let out = ''
  for (const [name, ids] of pending) {
    for (const id of ids) {
      const row = tables[name].get(id)
      out += JSON.stringify(row ? { t: name, r: row } : { t: name, del: id }) + '\n'
    }
  }
  pending.clear()
  return out
}

function allLogLines(tables: Record<TableName, AnyTable>): string {
  let out = ''
  for (const name of TABLE_NAMES) {
    if (TABLE_LAYOUT[name] !== 'log') continue
    for (const row of tables[name].all()) out += JSON.stringify({ t: name, r: row }) + '\n'
  }
  return out
}

/**
 * Folds the JSONL log into `tables` (last version of each id wins). A torn last line (a crash
 * mid-append, never acknowledged) is cut off so the next append starts on a clean line.
 */
async function replayLog(path: string, tables: Record<TableName, AnyTable>): Promise<{ superseded: number }> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return ''
    throw e
  })
  const lines = text.split('\n')
  const byTable = new Map<TableName, Map<string, { id: string }>>()
  let count = 0
  let tornAt: number | null = null
  lines.forEach((line, index) => {
    if (!line) return
    let entry: { t: TableName; r?: { id: string }; del?: string }
    try {
      entry = JSON.parse(line)
    } catch {
      if (index === lines.length - 1 || (index === lines.length - 2 && !lines[index + 1])) {
        tornAt = text.length - line.length - (index === lines.length - 1 ? 0 : 1)
        return
      }
      throw new Error(`${path}:${index + 1}: corrupt state log line`)
    }
    count++
    const rows = byTable.get(entry.t) ?? new Map()
    if (entry.r) rows.set(entry.r.id, entry.r)
    else if (entry.del) rows.delete(entry.del)
    byTable.set(entry.t, rows)
  })
  if (tornAt !== null) await truncate(path, Buffer.byteLength(text.slice(0, tornAt)))
  else if (text && !text.endsWith('\n')) await appendFile(path, '\n')
  let kept = 0
  for (const [name, rows] of byTable) {
    if (!tables[name]) continue
    tables[name].load([...rows.values()])
    kept += rows.size
  }
  return { superseded: count - kept }
}


/** Replaces a file whole: a temp file, then a rename over it. */
function atomicWriteSync(path: string, text: string): void {
  const tmp = `${path}.tmp`
  writeFileSync(tmp, text)
  renameSync(tmp, path)
}
