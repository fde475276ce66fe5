import { randomFillSync } from 'node:crypto'
import type { Ids } from '../domain/ports.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** Fills a buffer with random bytes (a CSPRNG in `randomIds`; a fixed stream in tests). */
export type ByteSource = (into: Uint8Array) => void

/** Random ids and CSPRNG secrets for `serve` and `createSandbox()` (KEY-01). */
export function randomIds(source: ByteSource = (into) => randomFillSync(into)): Ids {
  const draw = byteDrawer(source)
  return {
    next: (prefix) => `${prefix}_${pick(ID_ALPHABET, 12, draw)}`,
    secret: (count) => freshSecret(count, source),
  }
}

/**
 * A secret (a key value, KEY-01) from bytes drawn for it alone and wiped once used: the pool ids
 * share outlives the draw, and a secret's bytes must not (keys are made rarely; no pool needed).
 */
function freshSecret(count: number, source: ByteSource): string {
  // A 62-letter alphabet skips 8 of 256 byte values: twice the count is almost always enough (else it refills).
  const bytes = new Uint8Array(count * 2 + 16)
  const draw = byteDrawer(source, bytes)
  try {
    return pick(ALPHABET, count, draw)
  } finally {
    bytes.fill(0)
  }
}

/** Deterministic ids for tests: `key_000001`, and secrets that are unique but predictable. */
export function sequentialIds(): Ids {
  let n = 0
  return {
    next: (prefix) => `${prefix}_${String(++n).padStart(6, '0')}`,
    secret: (count) => `t${String(++n).padStart(count - 1, '0')}`.slice(0, count),
  }
}

const POOL_BYTES = 4096

/**
 * Bytes from `source`, a pool at a time: every write and charged read takes a few ids, and one
 * `randomInt` call per character (each with its own argument checks) was ≈ 1 % of the agent
 * session's CPU (bench/README.md).
 */
function byteDrawer(source: ByteSource, pool = new Uint8Array(POOL_BYTES)): () => number {
  let at = pool.length
  return () => {
    if (at === pool.length) {
      source(pool)
      at = 0
    }
    return pool[at++]
  }
}

function pick(alphabet: string, count: number, draw: () => number): string {
  // Uniform over the alphabet: bytes at or past the largest multiple of its length are drawn again (`byte % length` alone is biased).
  const limit = 256 - (256 % alphabet.length)
  let out = ''
  while (out.length < count) {
    const byte = draw()
    if (byte < limit) out += alphabet[byte % alphabet.length]
  }
  return out
}
