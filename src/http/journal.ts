import { appendFile } from 'node:fs/promises'
import type { IncomingHttpHeaders } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import type { Logger } from 'pino'
import type { Clock } from '../domain/ports.js'
import { anyCredential } from './credentials.js'
import { redactCredential, redactText } from '../support/redact.js'
import { jsonOrText } from '../support/json-or-text.js'
import { iso } from '../domain/durations.js'

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-service-key', 'x-api-key', 'x-sandbox-admin', 'cookie'])
const KEPT_RESPONSE_HEADERS = ['content-type', 'retry-after', 'www-authenticate', 'allow', 'location', 'mcp-session-id']

/** One recorded exchange. Bodies are kept as redacted JSON text and parsed when read. */
export interface JournalEntry {
  seq: number
  at: string
  sandbox_time: string
  host: 'base' | 'api'
  method: string
  path: string
  query: Record<string, unknown>
  status: number
  duration_ms: number
  key_prefix: string | null
  request: { headers: Record<string, string>; body: unknown }
  response: { headers: Record<string, string>; body: unknown }
  fault: string | null
}

export interface JournalQuery {
  since?: number
  path?: string
  key_prefix?: string
  method?: string
  status?: number
  host?: 'base' | 'api'
  limit?: number
}

/**
 * An entry as kept in the ring: flat, times as numbers, bodies as redacted text; expanded when
 * read. Under load thousands of entries are young at each minor GC, and its cost is what survives,
 * so an entry is one small object whose header and query records are shared with the previous
 * entry when equal (a client's headers rarely change).
 */
export interface StoredEntry extends Omit<JournalEntry, 'at' | 'sandbox_time' | 'request' | 'response'> {
  at_ms: number
  sandbox_ms: number
  request_headers: Record<string, string>
  request_body: string
  response_headers: Record<string, string>
  response_body: string
}

/**
 * The request journal: a bounded ring of exchanges with credentials redacted (DESIGN "State").
 * It is not part of the state document, so recording costs no disk write.
 */
export class Journal {
  readonly #entries: StoredEntry[] = []
  readonly #limit: number
  readonly #file: string | null
  readonly #logger: Logger | null
  #seq = 0

  constructor(options: { limit?: number; file?: string | null; logger?: Logger } = {}) {
    this.#limit = options.limit ?? 10_000
    this.#file = options.file ?? null
    this.#logger = options.logger ?? null
  }

  /** Stores an exchange that is already redacted, and logs one debug line about it. */
  record(entry: Omit<StoredEntry, 'seq'>): void {
    // `seq` first: `{ ...entry, seq }` takes V8's slow object path (µs per exchange, bench/).
    const stored = { seq: ++this.#seq, ...entry }
    const { host, method, path, status, duration_ms, key_prefix } = stored
    this.#logger?.debug({ seq: stored.seq, host, method, path, status, duration_ms, key_prefix }, 'exchange')
    this.#entries.push(stored)
    // shift() is O(1) on V8 arrays; splice(0, n) moves the whole ring (~0.1 ms at 10 000 entries).
    while (this.#entries.length > this.#limit) this.#entries.shift()
    if (this.#file) void appendFile(this.#file, JSON.stringify(expand(stored)) + '\n').catch(() => undefined)
  }

  query(q: JournalQuery = {}): { entries: JournalEntry[]; last_seq: number } {
    const limit = q.limit ?? 100
    const matches = this.#entries.filter((e) =>
      (q.since === undefined || e.seq > q.since) &&
      (!q.path || e.path.startsWith(q.path) || e.path.includes(q.path)) &&
      (!q.key_prefix || e.key_prefix?.startsWith(q.key_prefix)) &&
      (!q.method || e.method === q.method.toUpperCase()) &&
      (q.status === undefined || e.status === q.status) &&
      (!q.host || e.host === q.host))
    return { entries: matches.slice(-limit).map(expand), last_seq: this.#seq }
  }

  clear(): void {
    this.#entries.length = 0
  }

  get lastSeq(): number {
    return this.#seq
  }
}

/**
 * Express middleware that records every exchange of a host except the control plane. Must run
 * before the body parser so it can capture the raw request text.
 */
export function journalMiddleware(journal: Journal, clock: Clock, host: 'base' | 'api') {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path.startsWith('/_sandbox')) return next()
    const started = performance.now()
    const sandboxMs = clock.now()
    // Read now: a sub-router (e.g. the MCP SDK's OAuth handlers) may still have its prefix stripped at finish.
    const path = req.path
    let responseText = ''
    const send = res.send.bind(res)
    res.send = (body?: unknown) => {
      if (typeof body === 'string') responseText = body
      else if (Buffer.isBuffer(body)) responseText = body.toString('utf8')
      return send(body)
    }
    let recorded = false
    const record = (status: number) => {
      if (recorded) return
      recorded = true
      journal.record(exchangeEntry({
        host, started, sandboxMs, path, status, req, res, query: req.query,
        requestBody: rawBody(req), responseText, fault: (res.locals.fault as string | undefined) ?? null,
      }))
    }
    res.on('finish', () => record(res.statusCode))
    // A connection a scripted fault dropped before any response is recorded with status 0.
    res.on('close', () => {
      if (res.locals.fault && !res.writableFinished) record(0)
    })
    next()
  }
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
  requestBody: string
  responseText: string
  fault: string | null
}

/** The redacted journal entry of an exchange; the one builder both answering paths share. */
export function exchangeEntry(x: Exchange): Omit<StoredEntry, 'seq'> {
  const credential = anyCredential(x.req)
  return {
    at_ms: Date.now(),
    sandbox_ms: x.sandboxMs,
    host: x.host,
    method: x.req.method ?? '',
    path: redactText(x.path),
    query: queries.keep(redactQuery(x.query)),
    status: x.status,
    duration_ms: Math.round((performance.now() - x.started) * 100) / 100,
    // A prefix of something shorter than a key would be most of it; keep only real prefixes.
    key_prefix: credential && credential.length > 12 ? credential.slice(0, 12) : null,
    request_headers: requestHeaders.keep(redactHeaders(x.req.headers)),
    request_body: redactText(x.requestBody),
    response_headers: responseHeaders.keep(pickHeaders(x.res)),
    response_body: redactText(x.responseText),
    fault: x.fault,
  }
}

/** Hands back the record it kept last when `next` has the same entries, so equal records are shared. */
class LastRecord<T extends Record<string, unknown>> {
  #last: T | null = null

  keep(next: T): T {
    if (this.#last && sameEntries(this.#last, next)) return this.#last
    this.#last = Object.freeze(next)
    return next
  }
}

const queries = new LastRecord<Record<string, unknown>>()
const requestHeaders = new LastRecord<Record<string, string>>()
const responseHeaders = new LastRecord<Record<string, string>>()

function sameEntries(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let count = 0
  for (const name in b) {
    if (a[name] !== b[name] || !Object.hasOwn(a, name)) return false
    count++
  }
  return count === Object.keys(a).length
}

function redactQuery(query: unknown): Record<string, unknown> {
  const text = JSON.stringify(query ?? {})
  // Most exchanges have no query: skip the parse.
  return text === '{}' ? {} : (JSON.parse(redactText(text)) as Record<string, unknown>)
}

/** The raw request text, kept by the JSON parser's `verify` hook. */
export function keepRawBody(req: Request, _res: Response, buf: Buffer): void {
  ;(req as Request & { rawBody?: string }).rawBody = buf.toString('utf8')
}

function rawBody(req: Request): string {
  return (req as Request & { rawBody?: string }).rawBody ?? ''
}

function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const text = Array.isArray(value) ? value.join(', ') : (value ?? '')
    out[name] = CREDENTIAL_HEADERS.has(name) ? redactCredential(text) : redactText(text)
  }
  return out
}

function pickHeaders(res: Exchange['res']): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = res.getHeader(name)
    if (value !== undefined) out[name] = String(value)
  }
  return out
}

function expand(e: StoredEntry): JournalEntry {
  return {
    seq: e.seq, at: new Date(e.at_ms).toISOString(), sandbox_time: iso(e.sandbox_ms), host: e.host, method: e.method, path: e.path,
    query: structuredClone(e.query), status: e.status, duration_ms: e.duration_ms, key_prefix: e.key_prefix,
    request: { headers: { ...e.request_headers }, body: jsonOrText(e.request_body) },
    response: { headers: { ...e.response_headers }, body: jsonOrText(e.response_body) },
    fault: e.fault,
  }
}
