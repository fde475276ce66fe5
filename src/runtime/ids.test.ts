import { describe, expect, it } from 'vitest'
import { randomIds } from './ids.js'

describe('randomIds', () => {
  it('names ids as prefix, underscore and 12 lower-case letters or digits', () => {
    const ids = randomIds()
    for (let i = 0; i < 1000; i++) expect(ids.next('aud')).toMatch(/^aud_[a-z0-9]{12}$/)
  })

  it('makes secrets of the asked length from letters and digits', () => {
    const ids = randomIds()
    for (const count of [1, 32, 40, 5000]) expect(ids.secret(count)).toMatch(new RegExp(`^[A-Za-z0-9]{${count}}$`))
  })

  it('draws every character of the alphabet about equally often', () => {
    const ids = randomIds()
    const counts = new Map<string, number>()
    for (let i = 0; i < 30_000; i++) for (const c of ids.next('x').slice(2)) counts.set(c, (counts.get(c) ?? 0) + 1)
    // 360 000 draws over 36 characters: 10 000 each, with a standard deviation of ≈ 99.
    expect(counts.size).toBe(36)
    for (const n of counts.values()) expect(Math.abs(n - 10_000)).toBeLessThan(600)
  })

  it('skips the bytes that would bias the draw towards the start of the alphabet', () => {
    // 252 = 7 × 36: bytes 252–255 would map to a, b, c, d a seventh more often; they are drawn again.
    const stream = [252, 253, 254, 255, 0, 35, 36, 251]
    const ids = randomIds((into) => into.forEach((_, i) => (into[i] = stream[i % stream.length])))
    expect(ids.next('x')).toBe('x_a9a9a9a9a9a9')
  })

  it('refills the pool ids share once it is used up', () => {
    let fills = 0
    const ids = randomIds((into) => into.fill(++fills))
    // 4 096 bytes make 341 ids of 12 characters; the 342nd takes the last 4 bytes and 8 of a refill.
    for (let i = 0; i < 341; i++) expect(ids.next('x')).toBe('x_bbbbbbbbbbbb')
    expect(ids.next('x')).toBe('x_bbbbcccccccc')
    expect(fills).toBe(2)
  })

  it('draws a secret from bytes of its own and wipes them once the secret is made', () => {
    const handed: Uint8Array[] = []
    const ids = randomIds((into) => {
      handed.push(into)
      into.fill(7)
    })
    ids.next('x')
    expect(ids.secret(32)).toBe('H'.repeat(32))
    expect(handed).toHaveLength(2)
    expect(handed[1]).not.toBe(handed[0])
    expect(handed[1].every((byte) => byte === 0)).toBe(true)
    // The ids' pool was not drawn from: the next id continues it.
    expect(ids.next('x')).toBe('x_hhhhhhhhhhhh')
    expect(handed).toHaveLength(2)
  })
})
