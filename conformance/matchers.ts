import { JSONPath } from 'jsonpath-plus'
import { MATCHERS } from './schema.js'

export interface Mismatch {
  path: string
  expected: unknown
  given: unknown
}

/** True for `{gt: 3}`-style objects: every key is a matcher name. */
export function isMatcher(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => (MATCHERS as readonly string[]).includes(k))
}

/** Checks one value against a literal or a matcher object; returns what failed, or null. */
export function checkValue(given: unknown, spec: unknown): string | null {
  if (!isMatcher(spec)) return deepEqual(given, spec) ? null : 'eq'
  for (const [op, operand] of Object.entries(spec)) {
    if (!apply(op, given, operand)) return op
  }
  return null
}

function apply(op: string, given: unknown, operand: unknown): boolean {
  switch (op) {
    case 'eq': return deepEqual(given, operand)
    case 'ne': return !deepEqual(given, operand)
    case 'gt': return typeof given === 'number' && given > Number(operand)
    case 'gte': return typeof given === 'number' && given >= Number(operand)
    case 'lt': return typeof given === 'number' && given < Number(operand)
    case 'lte': return typeof given === 'number' && given <= Number(operand)
    case 'in': return Array.isArray(operand) && operand.some((o) => deepEqual(given, o))
    case 'matches': return typeof given === 'string' && new RegExp(String(operand)).test(given)
    case 'type': return typeOf(given) === operand || (operand === 'number' && typeOf(given) === 'integer')
    case 'exists': return (given !== undefined) === Boolean(operand)
    case 'len': {
      const len = typeof given === 'string' || Array.isArray(given) ? given.length : given && typeof given === 'object' ? Object.keys(given).length : undefined
      return len !== undefined && checkValue(len, operand) === null
    }
    default: return false
  }
}

export function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object)
  const kb = Object.keys(b as object)
  // A key missing on one side is not equal to one holding undefined on the other.
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b as object, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/**
 * Subset match (`expect.json`): every key of `expected` must be in `given` with a matching value;
 * arrays match element by element and must have the same length. `strict` also forbids extra keys.
 * Matcher objects may appear anywhere inside `expected`.
 */
export function matchSubset(expected: unknown, given: unknown, options: { strict?: boolean; path?: string } = {}): Mismatch[] {
  const path = options.path ?? '$'
  if (isMatcher(expected)) {
    const failed = checkValue(given, expected)
    return failed ? [{ path, expected, given }] : []
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(given) || given.length !== expected.length) return [{ path, expected, given }]
    return expected.flatMap((e, i) => matchSubset(e, given[i], { ...options, path: `${path}[${i}]` }))
  }
  if (expected !== null && typeof expected === 'object') {
    if (given === null || typeof given !== 'object' || Array.isArray(given)) return [{ path, expected, given }]
    const g = given as Record<string, unknown>
    const out = Object.entries(expected).flatMap(([k, v]) => matchSubset(v, g[k], { ...options, path: `${path}.${k}` }))
    if (options.strict) {
      for (const extra of Object.keys(g).filter((k) => !(k in expected))) out.push({ path: `${path}.${extra}`, expected: undefined, given: g[extra] })
    }
    return out
  }
  return deepEqual(expected, given) ? [] : [{ path, expected, given }]
}

/**
 * Evaluates a JSONPath on a body. A definite path (no wildcard, filter, union or slice) gives its
 * one value or undefined; any other path gives the array of every match.
 */
export function queryPath(body: unknown, path: string): unknown {
  const values = JSONPath({ path, json: body as object, wrap: true }) as unknown[]
  if (/\*|\.\.|\?\(|\[[^\]]*[,:][^\]]*\]/.test(path)) return values
  return values.length === 0 ? undefined : values[0]
}
