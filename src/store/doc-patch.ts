/** A doc row as the core document stores it. */
export type DocRow = { id: string } & Record<string, unknown>

/**
 * What changed between two versions of a doc row, as a doc line carries it (`doc-log.ts`):
 * `p` sets top-level fields to new values; `a` appends elements to array fields (a history that
 * only grew). Replaying `p` then `a` over the older version gives the newer one, key order included.
 */
export interface RowPatch {
  p?: Record<string, unknown>
  a?: Record<string, unknown[]>
}

/** `patchOf`'s answer when only a whole row says it right (keys added, removed or reordered, a value gone). */
export const WHOLE_ROW = 'whole'

/**
 * The patch that turns `base` (the row as the log and document already hold it) into `next`, or
 * null when nothing changed, or `WHOLE_ROW`. Rows are replaced, never mutated (test runs freeze
 * them), so a field holding the very same value is unchanged and an array whose old elements are
 * the very same values grew by its new ones: a campaign's pause adds one status entry, and its
 * doc line carries that entry instead of the row's whole history.
 */
export function patchOf(base: DocRow, next: DocRow): RowPatch | null | typeof WHOLE_ROW {
  const keys = Object.keys(next)
  const baseKeys = Object.keys(base)
  if (keys.length !== baseKeys.length) return WHOLE_ROW
  let p: Record<string, unknown> | undefined
  let a: Record<string, unknown[]> | undefined
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]
    if (key !== baseKeys[i]) return WHOLE_ROW
    const value = next[key]
    const old = base[key]
    if (value === old) continue
    // JSON drops an undefined field: only a whole row keeps replay and memory alike (as before patches).
    if (value === undefined || old === undefined) return WHOLE_ROW
    const added = appendedTo(old, value)
    if (added) (a ??= {})[key] = added
    else (p ??= {})[key] = value
  }
  if (!p && !a) return null
  return a ? (p ? { p, a } : { a }) : { p }
}

/** The elements `next` adds after every element of `old`, when it only grew (null otherwise). */
function appendedTo(old: unknown, next: unknown): unknown[] | null {
  if (!Array.isArray(old) || !Array.isArray(next) || next.length <= old.length) return null
  for (let i = 0; i < old.length; i++) if (old[i] !== next[i]) return null
  return next.slice(old.length)
}

/** Replays a patch over the row it was taken against (a fresh object; `row` is left as it is). */
export function applyPatch(row: DocRow, patch: RowPatch): DocRow {
  const next: DocRow = { ...row }
  if (patch.p) for (const key of Object.keys(patch.p)) next[key] = patch.p[key]
  if (patch.a) {
    for (const key of Object.keys(patch.a)) {
      const old = next[key]
      if (!Array.isArray(old)) throw new Error(`doc line appends to "${key}" of row ${row.id}, which holds no array there`)
      next[key] = old.concat(patch.a[key])
    }
  }
  return next
}
