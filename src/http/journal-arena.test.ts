import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ARENA_CHUNK, JournalArena } from './journal-arena.js'

function put(arena: JournalArena, text: string): [number, number] {
  const at = arena.put(text)
  return [at, arena.end - at]
}

describe('JournalArena', () => {
  it.each([
    ['ASCII', '{"campaigns":[{"id":"cmp_1"}]}'],
    ['two-byte characters', 'café – naïve'],
    ['astral characters', 'rocket 🚀 and 𝄞'],
    ['empty text', ''],
  ])('gives back %s as it was put, with its UTF-8 length', (_name, text) => {
    const arena = new JournalArena()
    arena.put('before')
    const [at, bytes] = put(arena, text)
    expect(bytes).toBe(Buffer.byteLength(text))
    expect(arena.text(at, bytes)).toBe(text)
  })

  it('starts a new chunk when a text does not fit in what is left of the current one', () => {
    const arena = new JournalArena()
    const texts = Array.from({ length: 40 }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(100_000))
    const kept = texts.map((text) => put(arena, text))
    expect(arena.bytes).toBeGreaterThan(3 * ARENA_CHUNK)
    kept.forEach(([at, bytes], i) => expect(arena.text(at, bytes)).toBe(texts[i]))
  })

  it('keeps a text longer than a chunk whole in a chunk of its own', () => {
    const arena = new JournalArena()
    arena.put('x')
    const long = 'é'.repeat(ARENA_CHUNK)
    const [at, bytes] = put(arena, long)
    const [after, afterBytes] = put(arena, 'next')
    expect(arena.text(at, bytes)).toBe(long)
    expect(arena.text(after, afterBytes)).toBe('next')
  })

  it('drops the chunks before a released position and keeps every text after it', () => {
    const arena = new JournalArena()
    const text = 'y'.repeat(300_000)
    const kept = Array.from({ length: 12 }, () => put(arena, text))
    const grown = arena.bytes
    arena.release(kept[9][0])
    expect(arena.bytes).toBeLessThan(grown)
    for (const [at, bytes] of kept.slice(9)) expect(arena.text(at, bytes)).toBe(text)
  })

  it('reuses released chunks instead of allocating new ones once the journal is steady', () => {
    const arena = new JournalArena()
    const text = 'z'.repeat(200_000)
    const window: number[] = []
    let most = 0
    for (let i = 0; i < 200; i++) {
      window.push(arena.put(text))
      if (window.length > 10) window.shift()
      arena.release(window[0])
      most = Math.max(most, arena.bytes)
    }
    // 10 texts of 200 KB span at most 4 chunks; plus the current one and two spares.
    expect(most).toBeLessThanOrEqual(7 * ARENA_CHUNK)
  })

  it('forgets everything on clear, and positions handed out after it never point into the old texts', () => {
    const arena = new JournalArena()
    const [oldAt] = put(arena, 'old text')
    arena.clear()
    expect(arena.bytes).toBe(0)
    const [at, bytes] = put(arena, 'new text')
    expect(at).toBeGreaterThan(oldAt)
    expect(arena.text(at, bytes)).toBe('new text')
  })

  it('matches a plain list of the texts after any run of puts and releases', () => {
    const step = fc.oneof(
      fc.record({ put: fc.string({ unit: 'binary', maxLength: 5_000 }), repeat: fc.integer({ min: 1, max: 400 }) }),
      fc.record({ release: fc.nat() }),
    )
    fc.assert(fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const arena = new JournalArena()
      const model: Array<{ text: string; at: number; bytes: number }> = []
      for (const s of steps) {
        if ('put' in s) {
          const text = s.put.repeat(s.repeat)
          const [at, bytes] = put(arena, text)
          model.push({ text: Buffer.from(text, 'utf8').toString('utf8'), at, bytes })
        } else if (model.length > 0) {
          // Release up to some kept entry, as the journal does with its oldest.
          model.splice(0, s.release % model.length)
          arena.release(model[0].at)
        }
      }
      for (const m of model) expect(arena.text(m.at, m.bytes)).toBe(m.text)
    }), { numRuns: 150 })
  })
})
