/**
 * Object helpers for the request path. No imports, so `src/domain` may use them.
 */

/**
 * `{ ...base, ...extra }`, built with `Object.assign`. On Node 20 (V8 11.3) a spread followed by
 * keys the spread did not have takes V8's slow path: 1–3 µs per object against ≈ 0.1 µs here
 * (bench/README.md), and a request builds several. For the sandbox's own records only: a source
 * holding an own `__proto__` key (parsed from a stranger's JSON) would set the prototype here,
 * where a spread copies it as data. Also not for records of more than ≈ 16 keys: there the copy
 * becomes a dictionary-mode object, slow to add to, walk and serialise (`publicAudit` copies an
 * audit entry key by key instead).
 */
export function extend<A extends object, B extends object | null | undefined>(base: A, extra: B): A & NonNullable<B> {
  return Object.assign({}, base, extra) as A & NonNullable<B>
}
