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

/** A body as it was sent or read: text, bytes, or bytes in chunks (a kept listing and the few bytes around it). */
export type SentBody = string | Buffer | readonly Buffer[]

/**
 * Masks a body and keeps at most `cap` characters of it. Only a window a little past the cap is
 * decoded and masked, so a 1 MB body costs no full pass; the cut is made where no key cut in half
 * can remain. A body still in bytes (as read off the wire) is decoded only as far as the window.
 */
export function keepBody(body: SentBody, cap: number): KeptBody {
  return keepWindow(windowOf(body, cap), cap).kept
}

/**
 * `keepBody` that hands back its previous answer when a body's window (all of a short body, the
 * first `cap` and a little of a long one) is the same as the last one's: a list body reused request
 * after request, or a long listing whose JSON-RPC id comes after the cut, is masked once, not once
 * per exchange. Only a window that masking left unchanged is remembered (as a copy: a slice would
 * keep its whole parent), so no secret outlives its exchange here.
 */
export class LastKept {
  #head: string | Buffer | null = null
  #whole = false
  #cap = 0
  #kept: KeptBody = { text: '', truncated: null }

  keep(body: SentBody, cap: number): KeptBody {
    // The common case on every exchange, a short body sent again as the very same text, builds no window.
    if (body === this.#head && this.#whole && cap === this.#cap) return this.#kept
    const window = windowOf(body, cap)
    if (this.#head !== null && cap === this.#cap && window.whole === this.#whole && sameHead(window.head, this.#head)) {
      const truncated = this.#kept.truncated
      // The window is the same; a long body's length past it may not be.
      return truncated ? { text: this.#kept.text, truncated: { bytes: bytesOf(window), kept_bytes: truncated.kept_bytes } } : this.#kept
    }
    const { kept, clean } = keepWindow(window, cap)
    this.#head = clean ? copyHead(window.head, body) : null
    this.#whole = window.whole
    this.#cap = cap
    this.#kept = kept
    return kept
  }
}

/** The part of a body the journal reads: its first `cap` characters and the margin masking needs. */
interface BodyWindow {
  head: string | Buffer
  /** The head is the whole body. */
  whole: boolean
  body: SentBody
  /** The body's length in UTF-8 bytes, or -1 for text, counted only when a cut needs it (`bytesOf`). */
  total: number
}

function bytesOf(window: BodyWindow): number {
  return window.total >= 0 ? window.total : Buffer.byteLength(window.body as string)
}

function windowOf(body: SentBody, cap: number): BodyWindow {
  const size = cap + 2 * ENCODED_SECRET_MAX
  if (typeof body === 'string') {
    const head = body.length <= size ? body : body.slice(0, size)
    return { head, whole: head.length === body.length, body, total: -1 }
  }
  const chunks: readonly Buffer[] = Buffer.isBuffer(body) ? [body] : body
  let total = 0
  for (const chunk of chunks) total += chunk.length
  // A character takes at least one byte, so `size` bytes hold at least the window's characters.
  const head = chunks.length === 1 || chunks[0].length >= size ? chunks[0].subarray(0, size) : Buffer.concat(chunks, Math.min(size, total))
  return { head, whole: size >= total, body, total }
}

function keepWindow(window: BodyWindow, cap: number): { kept: KeptBody; clean: boolean } {
  const text = typeof window.head === 'string' ? window.head : window.head.toString('utf8')
  const masked = redactText(text)
  const clean = masked === text
  if (window.whole && text.length <= cap) return { kept: { text: masked, truncated: null }, clean }
  // Masking only shortens, so whatever the window's end cut of a secret lies in its last ENCODED_SECRET_MAX characters.
  const end = window.whole ? cap : Math.min(cap, masked.length - ENCODED_SECRET_MAX)
  const kept = copyOf(dropLoneHighSurrogate(masked.slice(0, end)))
  return { kept: { text: kept, truncated: { bytes: bytesOf(window), kept_bytes: Buffer.byteLength(kept) } }, clean }
}

function sameHead(a: string | Buffer, b: string | Buffer): boolean {
  return typeof a === 'string' ? a === b : typeof b !== 'string' && a.equals(b)
}

// A head that is the whole body string is kept as it is; a slice or a view is copied.
function copyHead(head: string | Buffer, body: SentBody): string | Buffer {
  if (typeof head !== 'string') return Buffer.from(head)
  return head === body ? head : copyOf(head)
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
