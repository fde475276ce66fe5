import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { DocRow, RowPatch } from './doc-patch.js'
import { applyPatch, patchOf, WHOLE_ROW } from './doc-patch.js'

const entry = { at: '2026-11-27T10:00:00.000Z', status: 'PAUSED' }
const base: DocRow = { id: 'c1', status: 'ENABLED', daily_budget: 50, history: [entry], credits: { balance: 9 } }

describe('patchOf: what a doc line says about an updated row', () => {
  it.each([
    ['nothing changed', { ...base }, null],
    ['a field changed', { ...base, daily_budget: 51 }, { p: { daily_budget: 51 } }],
    ['an array grew by new elements', { ...base, history: [entry, { at: 'x', status: 'ENABLED' }] }, { a: { history: [{ at: 'x', status: 'ENABLED' }] } }],
    ['an array was rebuilt (folded), so it is set whole', { ...base, history: [{ ...entry }] }, { p: { history: [{ ...entry }] } }],
    ['an array shrank', { ...base, history: [] }, { p: { history: [] } }],
    ['a field and an array together', { ...base, status: 'PAUSED', history: [entry, entry] }, { p: { status: 'PAUSED' }, a: { history: [entry] } }],
    ['a nested object replaced by an equal copy (written, harmless)', { ...base, credits: { balance: 9 } }, { p: { credits: { balance: 9 } } }],
    ['a key added', { ...base, paused_at: 'now' }, WHOLE_ROW],
    ['a key removed', { id: 'c1', status: 'ENABLED', daily_budget: 50, history: [entry] }, WHOLE_ROW],
    ['keys reordered', { id: 'c1', daily_budget: 50, status: 'ENABLED', history: [entry], credits: base.credits }, WHOLE_ROW],
    ['a value became undefined (JSON would drop the key)', { ...base, status: undefined }, WHOLE_ROW],
  ] as Array<[string, DocRow, RowPatch | null | typeof WHOLE_ROW]>)('%s', (_name, next, expected) => {
    expect(patchOf(base, next)).toEqual(expected)
  })
})

describe('applyPatch', () => {
  it('refuses to append to a field that holds no array, naming the row', () => {
    expect(() => applyPatch(base, { a: { status: [1] } })).toThrow(/"status" of row c1/)
  })

  it('leaves the older row as it was', () => {
    const before = JSON.stringify(base)
    applyPatch(base, { p: { status: 'PAUSED' }, a: { history: [entry] } })
    expect(JSON.stringify(base)).toBe(before)
  })
})

// One step from a row version to the next, as the domain makes them: rows replaced, arrays grown or rebuilt.
type Step = { kind: 'set' | 'grow' | 'rebuild' | 'add' | 'drop' | 'unset'; key: string; value: number }
const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('set', 'grow', 'rebuild', 'add', 'drop', 'unset'),
  key: fc.constantFrom('a', 'b', 'list', 'other'),
  value: fc.integer({ min: 0, max: 5 }),
})

function stepOnce(row: DocRow, s: Step): DocRow {
  const next: DocRow = { ...row }
  if (s.key === 'id') return next
  if (s.kind === 'set') next[s.key] = s.value % 2 ? { n: s.value } : s.value
  else if (s.kind === 'grow') next[s.key] = Array.isArray(row[s.key]) ? [...(row[s.key] as unknown[]), { n: s.value }] : [{ n: s.value }]
  else if (s.kind === 'rebuild') next[s.key] = Array.from({ length: s.value }, (_, i) => ({ n: i }))
  else if (s.kind === 'add') next[`${s.key}${s.value}`] = s.value
  else if (s.kind === 'drop') delete next[s.key]
  else next[s.key] = undefined
  return next
}

describe('patches replayed over the JSON the files hold', () => {
  it('give back the newer row exactly, key order included, for any run of changes', () => {
    fc.assert(fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
      let row: DocRow = { id: 'r', a: 1, list: [{ n: 0 }] }
      // What a replay holds: the row's JSON after each line.
      let onDisk = JSON.stringify(row)
      for (const s of steps) {
        const next = stepOnce(row, s)
        const patch = patchOf(row, next)
        if (patch === WHOLE_ROW) onDisk = JSON.stringify(next)
        else if (patch !== null) onDisk = JSON.stringify(applyPatch(JSON.parse(onDisk) as DocRow, JSON.parse(JSON.stringify(patch)) as RowPatch))
        expect(onDisk).toBe(JSON.stringify(next))
        row = next
      }
    }), { numRuns: 500 })
  })
})
