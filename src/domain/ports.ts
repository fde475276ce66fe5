import type {
  AuditEntry, AudienceArtifact, Campaign, ConnectLink, Connection, ConnectionRequest, FaultRule, KeyRecord, LedgerEntry,
  Membership, OutboxMail, RateBucketState, User, Workspace,
} from './model.js'

/** Sandbox time (DESIGN "Sandbox time"): everything time-based reads this, never the wall clock. */
export interface Clock {
  /** Current sandbox time in epoch milliseconds. */
  now(): number
}

/** Identifier and secret source; deterministic in tests, random in `serve`. */
export interface Ids {
  /** A new id such as `key_8f3k2m1q9z0a`, with the given prefix. */
  next(prefix: string): string
  /** `count` characters from [A-Za-z0-9] drawn from a CSPRNG (KEY-01). */
  secret(count: number): string
}

/** A keyed collection of records. Rows returned are live: change them only through `update`. */
export interface Table<T extends { id: string }> {
  get(id: string): T | undefined
  all(): readonly T[]
  find(predicate: (row: T) => boolean): T | undefined
  /** The row whose `field` equals `value`: a map lookup for fields the store indexes (`keys.hash`), else a scan. */
  findBy<K extends keyof T>(field: K, value: T[K]): T | undefined
  filter(predicate: (row: T) => boolean): T[]
  insert(row: T): T
  update(id: string, patch: Partial<T>): T
  /** Like update, but not a durable change by itself (e.g. `last_used_at`); saved with the next write. */
  touch(id: string, patch: Partial<T>): void
  remove(id: string): void
  size(): number
}

/** All collections of the sandbox state. Audit, ledger and outbox are append-only logs on disk. */
export interface Tables {
  users: Table<User>
  workspaces: Table<Workspace>
  memberships: Table<Membership>
  keys: Table<KeyRecord>
  connections: Table<Connection>
  campaigns: Table<Campaign>
  connectLinks: Table<ConnectLink>
  connectionRequests: Table<ConnectionRequest>
  audit: Table<AuditEntry>
  ledger: Table<LedgerEntry>
  outbox: Table<OutboxMail>
  rateBuckets: Table<RateBucketState>
  faults: Table<FaultRule>
  artifacts: Table<AudienceArtifact>
}

export type TableName = keyof Tables

/** Everything the store holds, as plain JSON (export/import, reset). */
export type Snapshot = { version: 1; meta: StoreMeta } & { [K in TableName]: Array<RowOf<K>> }
export type RowOf<K extends TableName> = Tables[K] extends Table<infer T> ? T : never

/** Small settings persisted with the state: the world it came from and the clock. */
export interface StoreMeta {
  world: string
  seed: number
  clock: { offset_ms: number; frozen_at: number | null }
}

/**
 * The storage port. Domain code changes tables in memory; the HTTP layer awaits `commit()` before
 * answering, so an acknowledged change is on disk (group commit: one flush serves many requests).
 */
export interface Store extends Tables {
  meta(): StoreMeta
  setMeta(meta: StoreMeta): void
  commit(): Promise<void>
  snapshot(): Snapshot
  /** Replace everything with `snapshot` (reset, import). */
  replace(snapshot: Snapshot): void
  close(): Promise<void>
}

/** What domain services receive: storage, time and ids, nothing else. */
export interface Deps {
  store: Store
  clock: Clock
  ids: Ids
}
