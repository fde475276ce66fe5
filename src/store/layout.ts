import type { Snapshot, StoreMeta, TableName } from '../domain/ports.js'

/**
 * Where each collection lives. `doc` tables are small and bounded by what people create; they are
 * rewritten as one lowdb document. `log` tables grow with use (audit, ledger, mail); they are
 * appended to a JSONL log so a write's cost never depends on their size.
 */
export const TABLE_LAYOUT: Record<TableName, 'doc' | 'log'> = {
  users: 'doc',
  workspaces: 'doc',
  memberships: 'doc',
  keys: 'doc',
  connections: 'doc',
  campaigns: 'doc',
  connectLinks: 'doc',
  connectionRequests: 'doc',
  audit: 'log',
  ledger: 'log',
  outbox: 'log',
  rateBuckets: 'doc',
  faults: 'doc',
  artifacts: 'log',
}

export const TABLE_NAMES = Object.keys(TABLE_LAYOUT) as TableName[]

/** Unique fields looked up on the hot path, kept in a map index (`authenticate()` finds keys by hash). */
export const TABLE_INDEXES: Partial<Record<TableName, string[]>> = {
  keys: ['hash'],
}

export function defaultMeta(): StoreMeta {
  return { world: 'empty', seed: 1, clock: { offset_ms: 0, frozen_at: null } }
}

export function emptySnapshot(meta: StoreMeta = defaultMeta()): Snapshot {
  const tables = Object.fromEntries(TABLE_NAMES.map((name) => [name, []]))
  return { version: 1, meta, ...tables } as unknown as Snapshot
}
