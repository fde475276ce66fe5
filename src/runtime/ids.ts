import { randomInt } from 'node:crypto'
import type { Ids } from '../domain/ports.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** Random ids and CSPRNG secrets for `serve` and `createSandbox()` (KEY-01). */
export function randomIds(): Ids {
  return {
    next: (prefix) => `${prefix}_${pick(ID_ALPHABET, 12)}`,
    secret: (count) => pick(ALPHABET, count),
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

function pick(alphabet: string, count: number): string {
  // randomInt is uniform over the alphabet, unlike `byte % length`.
  let out = ''
  for (let i = 0; i < count; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}
