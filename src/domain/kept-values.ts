import type { Deps } from './ports.js'

// Per store, one value per key actually asked (bounded): a list polled with one filter keeps one.
const keptValues = new WeakMap<Deps['store'], Map<string, object>>()
const KEPT_MAX = 1_000

/**
 * The value kept under `key` when `same(kept, value)`, else `value`, kept in its place. A list asked
 * again while nothing in it changed is the kept value, frozen (with the arrays and objects it holds
 * directly; the rows in them are frozen already) from its second ask on,
 * so its JSON text is reused whole (`jsonText`) and polling costs no serialising (REST-01
 * `GET /v1/campaigns`, DISP-07 `list_campaigns`; bench/README.md). A value asked once is not frozen:
 * where lists change between asks (agents writing), freezing and keeping texts would be wasted work.
 */
export function keepUnchanged<T extends object>(deps: Deps, key: string, value: T, options: { same: (kept: T, value: T) => boolean }): T {
  let values = keptValues.get(deps.store)
  if (!values) keptValues.set(deps.store, (values = new Map()))
  const last = values.get(key) as T | undefined
  if (last && options.same(last, value)) return Object.isFrozen(last) ? last : freezeOneLevel(last)
  if (values.size >= KEPT_MAX) values.clear()
  values.set(key, value)
  return value
}

function freezeOneLevel<T extends object>(value: T): T {
  for (const item of Object.values(value)) if (item !== null && typeof item === 'object') Object.freeze(item)
  return Object.freeze(value)
}

/** Whether two row lists hold the very same row objects, in order (rows are shared while unchanged). */
export function sameRows(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false
  // A loop, not `every`: on a frozen array (a kept list) `every` takes V8's slow path, ≈ 6× slower.
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
