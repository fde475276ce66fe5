import { appendFile, readFile, truncate } from 'node:fs/promises'
import type { TableName } from '../domain/ports.js'
import type { MemoryTable } from './memory-table.js'
import { TABLE_LAYOUT, TABLE_NAMES } from './layout.js'

type AnyTable = MemoryTable<{ id: string }>

/** The JSONL lines of the log rows changed since the last flush (`pending` is emptied). */
export function drainLogLines(tables: Record<TableName, AnyTable>, pending: Map<TableName, Set<string>>): string {
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

export function allLogLines(tables: Record<TableName, AnyTable>): string {
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
export async function replayLog(path: string, tables: Record<TableName, AnyTable>): Promise<{ superseded: number }> {
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
