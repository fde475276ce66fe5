import { describe, expect, it } from 'vitest'
import { HEAP_GROWING_PERCENT, applyHeapPolicy } from './heap-policy.js'

const GROWTH = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`
const NO_PRETENURING = '--no-allocation-site-pretenuring'

describe('applyHeapPolicy', () => {
  it.each([
    [[], [GROWTH, NO_PRETENURING]],
    [['--max-old-space-size=512'], [GROWTH, NO_PRETENURING]],
    [['--heap-growing-percent-ish'], [GROWTH, NO_PRETENURING]],
    [['--heap-growing-percent=80'], [NO_PRETENURING]],
    [['--heap_growing_percent=80'], [NO_PRETENURING]],
    [['--expose-gc', '--heap-growing-percent', '80'], [NO_PRETENURING]],
    [['--allocation-site-pretenuring'], [GROWTH]],
    [['--no-allocation_site_pretenuring', '--heap-growing-percent=20'], []],
  ])('with node flags %j, sets %j and leaves the flags node was given alone', (execArgv, expected) => {
    const set: string[] = []
    const result = applyHeapPolicy({ execArgv, setFlags: (flags) => set.push(flags) })
    expect(set).toEqual(expected)
    expect(result).toEqual(expected)
  })
})
