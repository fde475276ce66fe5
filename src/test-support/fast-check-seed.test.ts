import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PROPERTY_SEED } from './fast-check-seed.js'

describe('property tests run with a pinned seed', () => {
  it('the setup file pins fast-check\'s global seed, so two runs of a property draw the same values', () => {
    expect(fc.readConfigureGlobal().seed).toBe(PROPERTY_SEED)
    const draw = () => fc.sample(fc.integer(), { numRuns: 5, seed: fc.readConfigureGlobal().seed })
    expect(draw()).toEqual(draw())
    const seen: number[][] = [[], []]
    for (const run of seen) fc.assert(fc.property(fc.integer(), (n) => void run.push(n)), { numRuns: 20 })
    expect(seen[0]).toEqual(seen[1])
  })
})
