/** The header and query records of journal entries: redacted, and shared with the previous entry when equal. */
import type { IncomingHttpHeaders } from 'node:http'
import { redactCredential, redactText } from '../support/redact.js'

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-service-key', 'x-api-key', 'x-sandbox-admin', 'cookie'])
const KEPT_RESPONSE_HEADERS = ['content-type', 'retry-after', 'www-authenticate', 'allow', 'location', 'mcp-session-id']

/** Hands back the record it kept last when `next` has the same entries, so equal records are shared. */
export class LastRecord<T extends Record<string, unknown>> {
  #last: T | null = null

  keep(next: T): T {
    if (this.#last && sameEntries(this.#last, next)) return this.#last
    this.#last = Object.freeze(next)
    return next
  }
}

function sameEntries(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let count = 0
  for (const name in b) {
    if (a[name] !== b[name] || !Object.hasOwn(a, name)) return false
    count++
  }
  return count === Object.keys(a).length
}

/** The query as a redacted record, and the characters it takes. */
export function redactQuery(query: unknown): { record: Record<string, unknown>; chars: number } {
  const text = JSON.stringify(query ?? {})
  // Most exchanges have no query: skip the parse.
  return { record: text === '{}' ? {} : (JSON.parse(redactText(text)) as Record<string, unknown>), chars: text.length }
}

// The last headers redacted, as sent, and their redaction: a client sends the same headers request after request.
let lastSent: Record<string, unknown> | null = null
let lastRedacted: { record: Record<string, string>; chars: number } = { record: {}, chars: 0 }

/**
 * Request headers with credentials masked whatever their shape, and the characters they take. Equal
 * headers (same names, same string values) give the very same answer as the previous call, without
 * masking again.
 */
export function redactHeaders(headers: IncomingHttpHeaders): { record: Record<string, string>; chars: number } {
  if (lastSent && sameEntries(lastSent, headers)) return lastRedacted
  lastRedacted = redactFresh(headers)
  lastSent = { ...headers }
  return lastRedacted
}

function redactFresh(headers: IncomingHttpHeaders): { record: Record<string, string>; chars: number } {
  const record: Record<string, string> = {}
  let chars = 0
  for (const [name, value] of Object.entries(headers)) {
    const text = Array.isArray(value) ? value.join(', ') : (value ?? '')
    record[name] = CREDENTIAL_HEADERS.has(name) ? redactCredential(text) : redactText(text)
    chars += name.length + record[name].length
  }
  return { record, chars }
}

/** The response headers worth keeping. */
export function pickHeaders(res: { getHeader(name: string): unknown }): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = res.getHeader(name)
    if (value !== undefined) out[name] = String(value)
  }
  return out
}
