import type { Table } from '../domain/ports.js'
import { redactValue } from '../support/redact.js'

/** Notified on every change so the store can mark its document dirty or queue a log line. */
export type ChangeListener = (id: string, durable: boolean) => void

/**
 * A `Table` held in a Map, in insertion order; persistence is the listener's business. Fields named
 * in `indexed` hold unique values and get a map index, so `findBy` on them costs O(1) (this keeps
 * `authenticate()` from scanning every key by hash).
 */
export class MemoryTable<T extends { id: string }> implements Table<T> {
  readonly #rows = new Map<string, T>()
  readonly #onChange: ChangeListener
  readonly #indexes = new Map<keyof T, Map<unknown, string>>()

  constructor(onChange: ChangeListener = () => {}, indexed: ReadonlyArray<keyof T> = []) {
    this.#onChange = onChange
    for (const field of indexed) this.#indexes.set(field, new Map())
  }

  get(id: string): T | undefined {
    return this.#rows.get(id)
  }

  all(): readonly T[] {
    return [...this.#rows.values()]
  }

  find(predicate: (row: T) => boolean): T | undefined {
    for (const row of this.#rows.values()) if (predicate(row)) return row
    return undefined
  }

  findBy<K extends keyof T>(field: K, value: T[K]): T | undefined {
    const index = this.#indexes.get(field)
    if (!index) return this.find((row) => row[field] === value)
    const id = index.get(value)
    return id === undefined ? undefined : this.#rows.get(id)
  }

  filter(predicate: (row: T) => boolean): T[] {
    const out: T[] = []
    for (const row of this.#rows.values()) if (predicate(row)) out.push(row)
    return out
  }

  insert(given: T): T {
    if (this.#rows.has(given.id)) throw new Error(`duplicate id ${given.id}`)
    // No key value rests in a stored row, in any encoding (KEY-02, issue 36): masked on the way in.
    const row = redactValue(given)
    this.#rows.set(row.id, freezeIfAsked(row))
    this.#index(row)
    this.#onChange(row.id, true)
    return row
  }

  update(id: string, patch: Partial<T>): T {
    const row = this.#patch(id, redactValue(patch))
    this.#onChange(id, true)
    return row
  }

  touch(id: string, patch: Partial<T>): void {
    this.#patch(id, patch)
    this.#onChange(id, false)
  }

  remove(id: string): void {
    const row = this.#rows.get(id)
    if (!row) return
    this.#unindex(row)
    this.#rows.delete(id)
    this.#onChange(id, true)
  }

  size(): number {
    return this.#rows.size
  }

  /** Replace all rows without notifying (loading and resets). */
  load(rows: readonly T[]): void {
    this.#rows.clear()
    for (const index of this.#indexes.values()) index.clear()
    for (const row of rows) {
      this.#rows.set(row.id, freezeIfAsked(row))
      this.#index(row)
    }
  }

  #patch(id: string, patch: Partial<T>): T {
    const row = this.#rows.get(id)
    if (!row) throw new Error(`no row ${id}`)
    // Rows are replaced, not mutated, so a value handed out earlier stays a consistent snapshot.
    const next = freezeIfAsked({ ...row, ...patch })
    this.#unindex(row)
    this.#rows.set(id, next)
    this.#index(next)
    return next
  }

  #index(row: T): void {
    for (const [field, index] of this.#indexes) index.set(row[field], row.id)
  }

  #unindex(row: T): void {
    for (const [field, index] of this.#indexes) if (index.get(row[field]) === row.id) index.delete(row[field])
  }
}

/**
 * `SANDBOX_FREEZE_ROWS=1` (every test run sets it, vitest.config.ts) deep-freezes each stored row:
 * rows must be replaced, never mutated in place, and a mutation then throws where it happens
 * instead of changing a snapshot someone holds, or a row the store has already written out.
 * Off by default: freezing every row on every write costs time a running sandbox need not spend.
 */
const FREEZE = process.env.SANDBOX_FREEZE_ROWS === '1'

function freezeIfAsked<V>(value: V): V {
  if (!FREEZE) return value
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue
    Object.freeze(item)
    for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key])
  }
  return value
}
