import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'

/** Deterministic pseudo-randomness for generated data: same seed and label, same numbers. */

/** FNV-1a 32-bit hash of a text: mixes a seed with a campaign id or date. */
export function hashSeed(...parts: Array<string | number>): number {
  let h = 0x811c9dc5
  for (const ch of parts.join(':')) {
    h ^= ch.charCodeAt(0)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** mulberry32: a small, fast PRNG giving floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A float in [min, max) from a PRNG. */
export function between(next: () => number, min: number, max: number): number {
  return min + (max - min) * next()
}

/**
 * The English faker, reseeded for one synchronous use. Importing only `locale/en` instead of the
 * package root (which loads every locale) takes about a second off `serve` start-up (bench/).
 */
export function seededFaker(seed: number): Faker {
  englishFaker.seed(seed)
  return englishFaker
}
