import { describe, expect, it } from 'vitest'
import { countedValue } from './history-pins.js'

describe('countedValue', () => {
  it.each([
    ['a single field gives its value', { workspace_id: 'ws_1' }, 'workspace_id', 'ws_1'],
    ['a single field gives a non-string value as it is', { amount: 5 }, 'amount', 5],
    ['a pair gives both values joined by a bar', { workspace_id: 'ws_1', key_id: 'key_2' }, 'workspace_id|key_id', 'ws_1|key_2'],
    ['a pair with a null part counts nothing', { workspace_id: 'ws_1', key_id: null }, 'workspace_id|key_id', undefined],
    ['a pair with a missing part counts nothing', { key_id: 'key_2' }, 'workspace_id|key_id', undefined],
    ['three parts join in the order named', { a: 'x', b: 'y', c: 'z' }, 'c|a|b', 'z|x|y'],
  ])('%s', (_name, row, field, expected) => {
    expect(countedValue(row, field)).toBe(expected)
    // Asked again (the split names are kept): the same answer.
    expect(countedValue(row, field)).toBe(expected)
  })
})
