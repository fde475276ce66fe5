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

type Redacted = { record: Record<string, string>; chars: number }

// The previous call's headers and answer (a client sends the same headers request after request).
// No secret is kept for it: credential headers are kept masked, and headers that masking changed are not kept at all.
let last: { shown: Record<string, string>; redacted: Redacted } | null = null

/**
 * Request headers with credentials masked whatever their shape, and the characters they take.
 * Headers that mask to the same record as the previous call's get its very answer, found by
 * masking only the credential headers again.
 */
export function redactHeaders(headers: IncomingHttpHeaders): Redacted {
  if (last && masksAlike(last.shown, headers)) return last.redacted
  const redacted = redactFresh(headers)
  last = keepable(headers, redacted)
  return redacted
}

function keepable(headers: IncomingHttpHeaders, redacted: Redacted): typeof last {
  const shown: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const masked = redacted.record[name]
    if (CREDENTIAL_HEADERS.has(name) && typeof value === 'string') shown[name] = masked
    else if (value === masked) shown[name] = masked
    // A repeated header, or one that held a secret: the next call masks afresh.
    else return null
  }
  return { shown, redacted }
}

function masksAlike(shown: Record<string, string>, headers: IncomingHttpHeaders): boolean {
  let count = 0
  for (const name in headers) {
    const value = headers[name]
    const kept = shown[name]
    if (typeof value !== 'string' || kept === undefined) return false
    if (CREDENTIAL_HEADERS.has(name) ? redactCredential(value) !== kept : value !== kept) return false
    count++
  }
  return count === Object.keys(shown).length
}

function redactFresh(headers: IncomingHttpHeaders): Redacted {
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
