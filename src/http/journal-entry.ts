import type { IncomingHttpHeaders } from 'node:http'
import { NO_KEY_HEADERS, anyCredential } from './credentials.js'
import type { KeyHeaders } from './credentials.js'
import { redactText } from '../support/redact.js'
import { LastRecord, pickHeaders, redactHeaders, redactQuery } from './journal-record.js'
import { iso } from '../domain/durations.js'
import type { JournalEntry, Truncation } from '../support/wire.js'
import { ANONYMOUS_BODY_CAP, BODY_CAP, LastKept, shownBody } from './journal-body.js'
import type { SentBody } from './journal-body.js'
import type { JournalArena } from './journal-arena.js'

// What an entry costs besides its text (object, numbers, record slots): with 256 the accounting stays
// a little above the heap measured (docs/reliability.md, Memory bounds).
const ENTRY_OVERHEAD = 256

/**
 * An entry as kept in the ring: flat, times as numbers, bodies as redacted text; expanded when
 * read. Under load thousands of entries are young at each minor GC, and its cost is what survives,
 * so an entry is one small object whose header and query records are shared with the previous
 * entry when equal (a client's headers rarely change). Once recorded, a body the previous entry
 * did not have too lives in the journal's arena (`request_body` null, its text at
 * `request_at`, `request_bytes` long); an equal one keeps the string they share.
 */
export interface StoredEntry extends Omit<JournalEntry, 'at' | 'sandbox_time' | 'request' | 'response'> {
  at_ms: number
  sandbox_ms: number
  request_headers: Record<string, string>
  request_body: string | null
  request_at: number
  request_bytes: number
  request_truncated: Truncation | null
  response_headers: Record<string, string>
  response_body: string | null
  response_at: number
  response_bytes: number
  response_truncated: Truncation | null
  /** The arena's end when the entry was recorded: no text of it or of a later entry lies before. */
  arena_from: number
  /** Always present (null when none): a full ring refills its oldest entry with `Object.assign`, which would keep a key the new entry lacks. */
  request_id: string | null
  /** Estimated bytes the entry holds, counted against the ring's byte budget. */
  size: number
}

/** One exchange as seen by whichever path answered it (express, or the fast read path). */
export interface Exchange {
  host: 'base' | 'api'
  /** `performance.now()` when the exchange started. */
  started: number
  /** Sandbox time when the exchange started. */
  sandboxMs: number
  path: string
  query: unknown
  status: number
  req: { method?: string; headers: IncomingHttpHeaders }
  res: { getHeader(name: string): unknown }
  /** The request body as text, or as the bytes read (decoded only as far as the journal keeps it). */
  requestBody: string | Buffer
  /** The response body as sent (bytes and chunks are decoded only as far as the journal keeps them). */
  responseBody: SentBody
  fault: string | null
  /** The answer's `Request-Id`. */
  requestId?: string | null
}

/**
 * The redacted journal entry of an exchange; the one builder both answering paths share. Bodies
 * are cut to `BODY_CAP`, or `ANONYMOUS_BODY_CAP` without a valid credential (none sent, or 401).
 */
export function exchangeEntry(x: Exchange, keyHeaders: KeyHeaders = NO_KEY_HEADERS): StoredEntry {
  const credential = anyCredential(x.req, keyHeaders)
  const cap = credential && x.status !== 401 ? BODY_CAP : ANONYMOUS_BODY_CAP
  const request = requestBodies.keep(x.requestBody, cap)
  const response = responseBodies.keep(x.responseBody, cap)
  const path = redactText(x.path)
  const query = redactQuery(x.query)
  const headers = redactHeaders(x.req.headers, keyHeaders)
  return {
    // Numbered by `Journal.record`; first, so the entry keeps one shape.
    seq: 0,
    at_ms: Date.now(),
    sandbox_ms: x.sandboxMs,
    host: x.host,
    method: x.req.method ?? '',
    path,
    query: queries.keep(query.record),
    status: x.status,
    duration_ms: Math.round((performance.now() - x.started) * 100) / 100,
    // A prefix of something shorter than a key would be most of it; keep only real prefixes.
    key_prefix: credential && credential.length > 12 ? credential.slice(0, 12) : null,
    request_headers: requestHeaders.keep(headers.record),
    request_body: request.text,
    request_at: 0,
    request_bytes: 0,
    request_truncated: request.truncated,
    response_headers: responseHeaders.keep(pickHeaders(x.res)),
    response_body: response.text,
    response_at: 0,
    response_bytes: 0,
    response_truncated: response.truncated,
    arena_from: 0,
    fault: x.fault,
    request_id: x.requestId ?? null,
    size: ENTRY_OVERHEAD + path.length + query.chars + headers.chars + request.text.length + response.text.length,
  }
}

/**
 * `exchangeEntry`, contained: an exchange whose record cannot be built (a bug in masking or parsing
 * what a stranger sent) is recorded bare — method, status, times, no path, query, headers or
 * bodies — with `fault: "journal_error"`, and the error goes to `onError`. A response listener
 * must never throw: nothing catches it there, and the process would exit (issue 36).
 */
export function safeExchangeEntry(x: Exchange, onError: (error: unknown) => void, keyHeaders: KeyHeaders = NO_KEY_HEADERS): StoredEntry {
  try {
    return exchangeEntry(x, keyHeaders)
  } catch (error) {
    onError(error)
    return exchangeEntry({
      ...x, path: '', query: {}, req: { method: x.req.method, headers: {} }, res: { getHeader: () => undefined },
      requestBody: '', responseBody: '', fault: 'journal_error',
    })
  }
}

const requestBodies = new LastKept()
const responseBodies = new LastKept()
const queries = new LastRecord<Record<string, unknown>>()
const requestHeaders = new LastRecord<Record<string, string>>()
const responseHeaders = new LastRecord<Record<string, string>>()

/** An entry as reads show it: ISO times, bodies back from the arena and parsed where they are JSON. */
export function expand(e: StoredEntry, arena: JournalArena): JournalEntry {
  return {
    seq: e.seq, at: new Date(e.at_ms).toISOString(), sandbox_time: iso(e.sandbox_ms), host: e.host, method: e.method, path: e.path,
    query: structuredClone(e.query), status: e.status, duration_ms: e.duration_ms, key_prefix: e.key_prefix,
    request: side(e.request_headers, e.request_body ?? arena.text(e.request_at, e.request_bytes), e.request_truncated),
    response: side(e.response_headers, e.response_body ?? arena.text(e.response_at, e.response_bytes), e.response_truncated),
    fault: e.fault,
    request_id: e.request_id,
  }
}

function side(headers: Record<string, string>, body: string, truncated: Truncation | null): JournalEntry['request'] {
  // A cut body is not JSON any more: shown as the text kept.
  if (truncated) return { headers: { ...headers }, body, truncated: { ...truncated } }
  return { headers: { ...headers }, body: shownBody(body) }
}
