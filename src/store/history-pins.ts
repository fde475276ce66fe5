import type { HistoryConfig } from './history-layout.js'

/** The rows a history table pins in memory (its config's `pin`), and the oldest pinned row per pin key. */
export class PinSet<T extends { id: string }> {
  readonly ids = new Set<string>()
  readonly #byKey = new Map<string, string[]>()

  constructor(private readonly config: HistoryConfig<T>) {}

  wants(row: T): boolean {
    return this.config.pin?.(row) ?? false
  }

  /** The oldest pinned id under `key`. */
  first(key: string): string | undefined {
    return this.#byKey.get(key)?.[0]
  }

  pin(row: T): void {
    if (!this.wants(row)) return
    this.ids.add(row.id)
    const key = this.config.pinKey?.(row)
    if (!key) return
    const ids = this.#byKey.get(key) ?? []
    if (!ids.includes(row.id)) ids.push(row.id)
    this.#byKey.set(key, ids)
  }

  unpin(row: T): void {
    if (!this.ids.delete(row.id)) return
    const key = this.config.pinKey?.(row)
    const ids = key ? this.#byKey.get(key) : undefined
    if (!key || !ids) return
    const rest = ids.filter((id) => id !== row.id)
    if (rest.length) this.#byKey.set(key, rest)
    else this.#byKey.delete(key)
  }

  clear(): void {
    this.ids.clear()
    this.#byKey.clear()
  }
}

/** Per-value row counts of the counted fields, and the reducers' aggregates. */
export class Tallies<T extends { id: string }> {
  readonly counts = new Map<string, Map<string, number>>()
  readonly reducers = new Map<string, ReturnType<NonNullable<HistoryConfig<T>['reducers']>[string]>>()

  constructor(private readonly config: HistoryConfig<T>) {
    this.clear()
  }

  add(row: T, by: 1 | -1): void {
    for (const [field, counts] of this.counts) bump(counts, countedValue(row, field), by)
    for (const reducer of this.reducers.values()) (by > 0 ? reducer.add(row) : reducer.remove(row))
  }

  clear(): void {
    for (const field of this.config.counted ?? []) this.counts.set(field, new Map())
    for (const [name, make] of Object.entries(this.config.reducers ?? {})) this.reducers.set(name, make())
  }
}

/** A counted field's value; `a|b` counts pairs (`workspace_id|key_id`: a key's entries in one workspace). */
export function countedValue(row: object, field: string): unknown {
  // Every insert and every paged row asks: split each field name once, not per call.
  let names = FIELD_NAMES.get(field)
  if (!names) FIELD_NAMES.set(field, (names = field.split('|')))
  const values = row as Record<string, unknown>
  if (names.length === 1) return values[field]
  let out = ''
  for (let i = 0; i < names.length; i++) {
    const value = values[names[i]]
    if (typeof value !== 'string') return undefined
    out += i === 0 ? value : `|${value}`
  }
  return out
}

/** The counted field names split at `|` (a handful, from the tables' configs). */
const FIELD_NAMES = new Map<string, readonly string[]>()

function bump(counts: Map<string, number>, value: unknown, by: number): void {
  if (typeof value !== 'string') return
  const next = (counts.get(value) ?? 0) + by
  if (next > 0) counts.set(value, next)
  else counts.delete(value)
}

