import type { AuditEntry, LedgerEntry } from '../domain/model.js'
import type { CreditDayTotals } from '../domain/ports.js'

/** An aggregate a history table keeps up to date as rows are inserted and removed (rows are immutable in what it reads). */
export interface Reducer<T> {
  add(row: T): void
  remove(row: T): void
  value(): unknown
  dump(): unknown
  restore(data: unknown): void
}

/** What a history table keeps in memory besides its recent window. */
export interface HistoryConfig<T> {
  /** Rows requests look up by state, kept in memory whatever their age. */
  pin?: (row: T) => boolean
  /** The key `pinnedBy` finds a pinned row by. */
  pinKey?: (row: T) => string | null | undefined
  /** Fields whose per-value row counts are kept (exact totals, early stops); `a|b` counts pairs of values. */
  counted?: string[]
  /** Keep an id → row index for rows on disk (tables read by id). */
  byId?: boolean
  reducers?: Record<string, () => Reducer<T>>
}


const round2 = (n: number) => Math.round(n * 100) / 100

/** Net charges minus refunds per key (`/v1/credits` `used_by_key`). */
function spendByKey(): Reducer<LedgerEntry> {
  let sums = new Map<string, number>()
  const apply = (row: LedgerEntry, sign: number) => {
    if (row.key_id === null || (row.reason !== 'charge' && row.reason !== 'refund')) return
    sums.set(row.key_id, round2((sums.get(row.key_id) ?? 0) + sign * row.amount))
  }
  return {
    add: (row) => apply(row, 1),
    remove: (row) => apply(row, -1),
    value: () => sums,
    dump: () => [...sums],
    restore: (data) => { sums = new Map(data as Array<[string, number]>) },
  }
}

/** Per workspace and UTC day: charged, refunded, net and the closing balance (console credits chart). */
function creditDays(): Reducer<LedgerEntry> {
  let days = new Map<string, Map<string, CreditDayTotals>>()
  return {
    add(row) {
      const byDay = days.get(row.workspace_id) ?? new Map<string, CreditDayTotals>()
      days.set(row.workspace_id, byDay)
      const date = row.at.slice(0, 10)
      const day = byDay.get(date) ?? { charged: 0, refunded: 0, net: 0, last_at: row.at, balance_after: row.balance_after }
      if (row.reason === 'charge') day.charged = round2(day.charged + Math.abs(row.amount))
      if (row.reason === 'refund') day.refunded = round2(day.refunded + Math.abs(row.amount))
      day.net = round2(day.net + row.amount)
      // Ties in time go to the later line, as a stable sort by `at` would.
      if (row.at >= day.last_at) Object.assign(day, { last_at: row.at, balance_after: row.balance_after })
      byDay.set(date, day)
    },
    remove(row) {
      const day = days.get(row.workspace_id)?.get(row.at.slice(0, 10))
      if (!day) return
      if (row.reason === 'charge') day.charged = round2(day.charged - Math.abs(row.amount))
      if (row.reason === 'refund') day.refunded = round2(day.refunded - Math.abs(row.amount))
      day.net = round2(day.net - row.amount)
    },
    value: () => days,
    dump: () => [...days].map(([ws, byDay]) => [ws, [...byDay]]),
    restore(data) {
      days = new Map((data as Array<[string, Array<[string, CreditDayTotals]>]>).map(([ws, byDay]) => [ws, new Map(byDay)]))
    },
  }
}

/** The scripts whose executed audit entries are entities requests list (created conversions). */
export const PINNED_SCRIPTS = new Set(['google_ads_create_conversion'])

const auditConfig: HistoryConfig<AuditEntry> = {
  pin: (row) => row.status === 'pending_review' || row.status === 'approved' || (row.status === 'executed' && PINNED_SCRIPTS.has(row.script)),
  pinKey: (row) => (row.status === 'pending_review' ? row.dedupe_key : null),
  counted: ['workspace_id', 'key_id', 'workspace_id|key_id'],
  byId: true,
}

/** The memory rules of each history table (see docs/architecture.md "State and durability"). */
export const HISTORY_CONFIG = {
  audit: auditConfig,
  ledger: { counted: ['workspace_id'], reducers: { spend_by_key: spendByKey, credit_days: creditDays } } satisfies HistoryConfig<LedgerEntry>,
  outbox: { counted: ['workspace_id'] },
  artifacts: { byId: true, counted: ['workspace_id'] },
} as const satisfies Record<string, HistoryConfig<never>>
