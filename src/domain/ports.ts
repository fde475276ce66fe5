import type {
  AuditEntry, AudienceArtifact, Campaign, ConnectLink, Connection, ConnectionRequest, FaultRule, KeyRecord, LedgerEntry,
  Membership, OutboxMail, RateBucketState, User, Workspace,
} from './model.js'
import type { World } from './world.js'

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

/** A history query: rows newest first (insertion order), from memory and disk. */
export interface HistoryQuery<T> {
  where?: (row: T) => boolean
  /** Rows to return (default: all). */
  limit?: number
  /** Matching rows to skip before the first returned. */
  offset?: number
  /** `next` of a previous page: continue with the rows inserted before its last row (stable while rows append). */
  cursor?: string | null
  /** Only rows the table pins in memory (audit: pending reviews), never the history on disk. */
  pinnedOnly?: boolean
  /** A counted field and value every match has: the scan stops once it has seen all such rows. */
  within?: { field: string; value: string }
  /** Rows to read at most; a page that stops there is short, and its `next` continues after the last row read. */
  examine?: number
}

export interface HistoryPage<T> {
  rows: T[]
  /** Cursor of the next page, or null when this one reached the oldest match. */
  next: string | null
  /** Every match in the history, when the scan saw all of it (null: more than this page was not counted). */
  total: number | null
}

/**
 * A growing table (audit, ledger, outbox, artifacts): history lives on disk, memory keeps what
 * requests need (an id index, pinned rows, counts and aggregates, a recent window). `all`,
 * `filter` and `find` read the whole history and are for exports and tests; request paths use
 * `page`, `pinned`, `pinnedBy`, `count` and `aggregate`.
 */
export interface HistoryTable<T extends { id: string }> extends Table<T> {
  page(query: HistoryQuery<T>): HistoryPage<T>
  /** Rows kept in memory by the table's pin rule (audit: pending and approved reviews, created conversions), oldest first. */
  pinned(): readonly T[]
  /** The oldest pinned row whose pin key is `key` (audit: a pending review's dedupe key). */
  pinnedBy(key: string): T | undefined
  /** Rows whose counted `field` equals `value` (audit, ledger, outbox: workspace_id; audit: key_id). */
  count(field: string, value: string): number
  /** A store-maintained aggregate by name (ledger: `spend_by_key`, `credit_days`). */
  aggregate<A>(name: string): A
}

/** A workspace's credits on one UTC day, as the ledger's `credit_days` aggregate keeps them. */
export interface CreditDayTotals {
  charged: number
  refunded: number
  net: number
  /** `at` and `balance_after` of the day's latest line. */
  last_at: string
  balance_after: number
}

/** All collections of the sandbox state. Audit, ledger, outbox and artifacts are append-only logs on disk. */
export interface Tables {
  users: Table<User>
  workspaces: Table<Workspace>
  memberships: Table<Membership>
  keys: Table<KeyRecord>
  connections: Table<Connection>
  campaigns: Table<Campaign>
  connectLinks: Table<ConnectLink>
  connectionRequests: Table<ConnectionRequest>
  audit: HistoryTable<AuditEntry>
  ledger: HistoryTable<LedgerEntry>
  outbox: HistoryTable<OutboxMail>
  rateBuckets: Table<RateBucketState>
  faults: Table<FaultRule>
  artifacts: HistoryTable<AudienceArtifact>
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
  /** The sandbox clock. Time rules about one workspace read `clockFor` instead (`nowIn`, domain/workspace-time.ts). */
  clock: Clock
  ids: Ids
  /** The clock of a workspace: its own test clock when it has one, else the sandbox clock (issue 19). */
  clockFor?: (workspaceId: string) => Clock
}

/** Where worlds come from (the shipped `fixtures/worlds` folder or a path): the store reads the files, the control plane asks here. */
export interface WorldSource {
  /** Names of the shipped worlds. */
  list(): Promise<string[]>
  /** A world by name or path, parsed and checked against `worldSchema`; a plain Error names the file and reason. */
  load(nameOrPath: string): Promise<World>
}
