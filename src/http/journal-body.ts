import type { Truncation } from '../support/wire.js'
import { ENCODED_SECRET_MAX, redactText } from '../support/redact.js'
import { jsonOrText } from '../support/json-or-text.js'

/** Characters of each body (≈ bytes for ASCII) a journal entry keeps; the rest is dropped. */
export const BODY_CAP = 64 * 1024

/** What is kept of a body sent without a valid credential (none, or answered 401): strangers get little. */
export const ANONYMOUS_BODY_CAP = 1024


/** A body as the journal keeps it: masked, and cut to a cap. */
export interface KeptBody {
  text: string
  truncated: Truncation | null
}

/**
 * Masks a body and keeps at most `cap` characters of it. Only a window a little past the cap is
 * decoded and masked, so a 1 MB body costs no full pass; the cut is made where no key cut in half
 * can remain. A body still in bytes (as read off the wire) is decoded only as far as the window.
 */
export function keepBody(body: string | Buffer, cap: number): KeptBody {
  if (body.length <= cap) return { text: redactText(body.toString()), truncated: null }
  const windowSize = cap + 2 * ENCODED_SECRET_MAX
  // A character takes at least one byte, so the window's bytes hold at least its characters.
  const window = typeof body === 'string' ? body.slice(0, windowSize) : body.subarray(0, windowSize).toString('utf8')
  const whole = typeof body === 'string' ? window.length === body.length : windowSize >= body.length
  if (whole && window.length <= cap) return { text: redactText(window), truncated: null }
  const masked = redactText(window)
  // Masking only shortens, so whatever the window's end cut of a secret lies in its last ENCODED_SECRET_MAX characters.
  const end = whole ? cap : Math.min(cap, masked.length - ENCODED_SECRET_MAX)
  const kept = copyOf(dropLoneHighSurrogate(masked.slice(0, end)))
  return { text: kept, truncated: { bytes: Buffer.byteLength(body), kept_bytes: Buffer.byteLength(kept) } }
}

/**
 * `keepBody` that hands back its previous answer for the same text and cap: a list body reused
 * request after request (`jsonText`) is masked once, not once per exchange. Only a body kept
 * whole and unchanged by masking is remembered, so no secret outlives its exchange here.
 */
export class LastKept {
  #text: string | null = null
  #cap = 0
  #kept: KeptBody = { text: '', truncated: null }

  keep(body: string | Buffer, cap: number): KeptBody {
    if (typeof body !== 'string') return keepBody(body, cap)
    if (body === this.#text && cap === this.#cap) return this.#kept
    const kept = keepBody(body, cap)
    const clean = kept.truncated === null && kept.text === body
    this.#text = clean ? body : null
    this.#cap = cap
    this.#kept = kept
    return kept
  }
}

/** Deepest JSON a journal entry shows parsed; deeper bodies are shown as their text. */
export const MAX_SHOWN_DEPTH = 100

/**
 * A kept body as reads show it: parsed JSON, or the text itself when it is not JSON or nests
 * deeper than `MAX_SHOWN_DEPTH` (a 5 000-deep body would overflow the stack of every later read).
 */
export function shownBody(text: string): unknown {
  // Nesting needs two characters a level: shorter text cannot be too deep.
  return text.length > 2 * MAX_SHOWN_DEPTH && depthOf(text) > MAX_SHOWN_DEPTH ? text : jsonOrText(text)
}

/** The deepest nesting of brackets and braces outside JSON strings. */
function depthOf(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

function dropLoneHighSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1)
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text
}

/**
 * A fresh copy: V8 may keep a slice as a view that holds its whole parent alive, which would
 * keep every 1 MB body the cap was meant to drop.
 */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8')
}
