import { describe, expect, it } from 'vitest'
import { HEAP_GROWING_PERCENT, applyHeapPolicy } from './heap-policy.js'

describe('applyHeapPolicy', () => {
  it.each([
    [[], true],
    [['--max-old-space-size=512'], true],
    [['--heap-growing-percent-ish'], true],
    [['--heap-growing-percent=80'], false],
    [['--heap_growing_percent=80'], false],
    [['--expose-gc', '--heap-growing-percent', '80'], false],
  ])('with node flags %j, sets V8 growth to the sandbox policy: %s', (execArgv, applied) => {
    const set: string[] = []
    const result = applyHeapPolicy({ execArgv, setFlags: (flags) => set.push(flags) })
    expect(result).toBe(applied ? HEAP_GROWING_PERCENT : null)
    expect(set).toEqual(applied ? [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`] : [])
  })
})
