import { describe, expect, it } from 'vitest'
import { MemoryTable } from './memory-table.js'

interface Row { id: string; hash: string; name: string }

describe('MemoryTable index', () => {
  it('finds rows by an indexed field after insert, update, remove and load', () => {
    const table = new MemoryTable<Row>(() => {}, ['hash'])
    table.insert({ id: 'a', hash: 'h1', name: 'A' })
    expect(table.findBy('hash', 'h1')?.id).toBe('a')
    table.update('a', { hash: 'h2' })
    expect(table.findBy('hash', 'h1')).toBeUndefined()
    expect(table.findBy('hash', 'h2')?.id).toBe('a')
    table.touch('a', { name: 'touched' })
    expect(table.findBy('hash', 'h2')?.name).toBe('touched')
    table.remove('a')
    expect(table.findBy('hash', 'h2')).toBeUndefined()
    table.load([{ id: 'b', hash: 'h3', name: 'B' }])
    expect(table.findBy('hash', 'h3')?.id).toBe('b')
  })

  it('falls back to a scan for fields without an index', () => {
    const table = new MemoryTable<Row>()
    table.insert({ id: 'a', hash: 'h1', name: 'A' })
    expect(table.findBy('name', 'A')?.id).toBe('a')
    expect(table.findBy('name', 'Z')).toBeUndefined()
  })

  it('reports durable and non-durable changes to its listener', () => {
    const seen: Array<[string, boolean]> = []
    const table = new MemoryTable<Row>((id, durable) => seen.push([id, durable]))
    table.insert({ id: 'a', hash: 'h', name: 'A' })
    table.touch('a', { name: 'B' })
    table.update('a', { name: 'C' })
    table.remove('a')
    table.remove('a')
    expect(seen).toEqual([['a', true], ['a', false], ['a', true], ['a', true]])
  })

  it('hands out rows that later updates do not mutate', () => {
    const table = new MemoryTable<Row>()
    const first = table.insert({ id: 'a', hash: 'h', name: 'A' })
    table.update('a', { name: 'B' })
    expect(first.name).toBe('A')
    expect(() => table.insert({ id: 'a', hash: 'x', name: 'dup' })).toThrow(/duplicate/)
  })

  // The test runs set SANDBOX_FREEZE_ROWS (vitest.config.ts): this fails if that guard is ever switched off.
  it.each([
    ['a top-level field of an inserted row', (t: MemoryTable<Nested>) => { (t.get('a') as { name: string }).name = 'X' }],
    ['an array inside an updated row', (t: MemoryTable<Nested>) => { (t.get('a')!.tags as string[]).push('x') }],
    ['an object inside a loaded row', (t: MemoryTable<Nested>) => { (t.get('b')!.meta as { n: number }).n = 2 }],
  ])('throws where code mutates %s in place, under the test runs\' frozen rows', (_what, mutate) => {
    expect(process.env.SANDBOX_FREEZE_ROWS).toBe('1')
    const table = new MemoryTable<Nested>()
    table.load([{ id: 'b', name: 'B', tags: [], meta: { n: 1 } }])
    table.insert({ id: 'a', name: 'A', tags: [], meta: { n: 1 } })
    table.update('a', { tags: ['t'] })
    expect(() => mutate(table)).toThrow(TypeError)
  })
})

interface Nested { id: string; name: string; tags: string[]; meta: { n: number } }
