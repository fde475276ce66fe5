import { beforeEach, describe, expect, it } from 'vitest'
import type { Deps } from './ports.js'
import { keepUnchanged } from './kept-values.js'

// Values are kept per store (by identity): a fresh object stands for a fresh store.
const freshDeps = () => ({ store: {} }) as unknown as Deps
let deps: Deps
beforeEach(() => {
  deps = freshDeps()
})

describe('keepUnchanged', () => {
  type Value = { n: number }
  const options = { same: (a: Value, b: Value) => a.n === b.n }

  it('hands back the kept value, frozen, from the second ask on while it is the same', () => {
    const asked = { n: 1 }
    // Asked once: the value itself, not frozen (a list that changes at every ask is never frozen).
    expect(keepUnchanged<Value>(deps, 'k', asked, options)).toBe(asked)
    expect(Object.isFrozen(asked)).toBe(false)
    const again = keepUnchanged<Value>(deps, 'k', { n: 1 }, options)
    expect(Object.isFrozen(again)).toBe(true)
    expect(keepUnchanged<Value>(deps, 'k', { n: 1 }, options)).toBe(again)
    const changed = { n: 2 }
    expect(keepUnchanged<Value>(deps, 'k', changed, options)).toBe(changed)
    expect(keepUnchanged<Value>(deps, 'k', { n: 2 }, options)).toBe(changed)
  })

  it('keeps values apart per store and per key', () => {
    const here = { n: 1 }
    keepUnchanged<Value>(deps, 'k', here, options)
    // Another store, or another key, has kept nothing: its first ask gets its own value back.
    const there = { n: 1 }
    expect(keepUnchanged<Value>(freshDeps(), 'k', there, options)).toBe(there)
    const elsewhere = { n: 1 }
    expect(keepUnchanged<Value>(deps, 'other key', elsewhere, options)).toBe(elsewhere)
    expect(keepUnchanged<Value>(deps, 'k', { n: 1 }, options)).toBe(here)
  })
})
