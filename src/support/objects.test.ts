import { describe, expect, it } from 'vitest'
import { extend } from './objects.js'

describe('extend', () => {
  it.each([
    ['adds keys after the base ones', { a: 1, b: 2 }, { c: 3 }, ['a', 'b', 'c']],
    ['overrides a key in place, keeping its position', { a: 1, b: 2 }, { a: 9, c: 3 }, ['a', 'b', 'c']],
    ['takes no extra as nothing to add', { a: 1 }, null, ['a']],
  ])('%s, as a spread does', (_name, base, extra, keys) => {
    const out = extend(base as object, extra as object | null)
    expect(out).toEqual({ ...base, ...extra })
    expect(Object.keys(out)).toEqual(keys)
  })

  it('leaves both inputs untouched and returns a new plain object', () => {
    const base = Object.freeze({ a: 1 })
    const extra = Object.freeze({ b: 2 })
    const out = extend(base, extra)
    expect(out).not.toBe(base)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.isFrozen(out)).toBe(false)
  })
})
