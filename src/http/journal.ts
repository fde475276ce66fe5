import { appendFile } from 'node:fs/promises'
import type { NextFunction, Request, Response } from 'express'
import type { Logger } from 'pino'
import type { Clock } from '../domain/ports.js'
import type { JournalEntry, JournalQuery } from '../support/wire.js'
import { JournalArena } from './journal-arena.js'
import type { StoredEntry } from './journal-entry.js'
import type { Exchange } from './journal-entry.js'
import { expand, safeExchangeEntry } from './journal-entry.js'
import type { KeyHeaders } from './credentials.js'
import { NO_KEY_HEADERS } from './credentials.js'
import type { SentBody } from './journal-body.js'
import type { ChunkedBody } from './write-chunks.js'
import { writeChunks } from './write-chunks.js'

/** Default byte budget of the journal ring (`--journal-max-bytes`). */
export const JOURNAL_MAX_BYTES = 64 * 1024 * 1024

export type { JournalEntry, JournalQuery }

/**
 * The request journal: a ring of exchanges with credentials redacted (DESIGN "State"), bounded by
 * entries (`limit`) and by bytes (`maxBytes`), oldest evicted first; the newest entry is always
 * kept. It is not part of the state document, so recording costs no disk write.
 */
export class Journal {
  readonly #entries: StoredEntry[] = []
  readonly #limit: number
  readonly #maxBytes: number
  readonly #file: string | null
  readonly #logger: Logger | null
  readonly #arena = new JournalArena()
  readonly #keyHeaders: () => KeyHeaders
  #lastRequest: string | null = null
  #lastResponse: string | null = null
  #seq = 0
  #bytes = 0

  /** `keyHeaders`: the configured key header names, masked like `X-Service-Key` (issue 35). */
  constructor(options: { limit?: number; maxBytes?: number; file?: string | null; logger?: Logger; keyHeaders?: () => KeyHeaders } = {}) {
    this.#keyHeaders = options.keyHeaders ?? (() => NO_KEY_HEADERS)
    this.#limit = options.limit ?? 10_000
    this.#maxBytes = options.maxBytes ?? JOURNAL_MAX_BYTES
    this.#file = options.file ?? null
    this.#logger = options.logger ?? null
  }

  /**
   * Records an exchange from a response listener: never throws (an exception there would end the
   * process). A record that cannot be built is stored bare and logged (`safeExchangeEntry`); a
   * failure to store it is logged.
   */
  recordExchange(x: Exchange): void {
    try {
      const onError = (error: unknown) => this.#logger?.error({ err: error, path: '[not shown]' }, 'journal: exchange recorded without its details')
      this.record(safeExchangeEntry(x, onError, this.#keyHeaders()))
    } catch (error) {
      this.#logger?.error({ err: error }, 'journal: exchange not recorded')
    }
  }

  /** Stores an exchange that is already redacted, and logs one debug line about it. */
  record(entry: StoredEntry): void {
    // Numbered in place: `exchangeEntry` builds a fresh entry with `seq` as its first key (a copy costs ≈ 0.5 µs).
    entry.seq = ++this.#seq
    if (this.#logger?.isLevelEnabled('debug')) {
      const { host, method, path, status, duration_ms, key_prefix } = entry
      this.#logger.debug({ seq: entry.seq, host, method, path, status, duration_ms, key_prefix }, 'exchange')
    }
    if (this.#file) void appendFile(this.#file, JSON.stringify(expand(entry, this.#arena)) + '\n').catch(() => undefined)
    this.#keepBodies(entry)
    let kept = entry
    // At the limit the evicted entry is refilled with the new one's values: the fresh object then dies
    // young, where a new entry per exchange lived for thousands of them and died in the old space.
    if (this.#entries.length >= this.#limit) {
      const evicted = this.#entries.shift() as StoredEntry
      this.#bytes -= evicted.size
      kept = Object.assign(evicted, entry)
    }
    this.#entries.push(kept)
    this.#bytes += kept.size
    // shift() is O(1) on V8 arrays; splice(0, n) moves the whole ring (~0.1 ms at 10 000 entries).
    while (this.#entries.length > this.#limit || (this.#bytes > this.#maxBytes && this.#entries.length > 1)) {
      this.#bytes -= (this.#entries.shift() as StoredEntry).size
    }
    this.#arena.release(this.#entries[0].arena_from)
  }

  // A body equal to the previous entry's (a list answered again unchanged) keeps the one string they
  // share; any other goes to the arena, so no per-exchange string outlives its exchange on the heap.
  #keepBodies(entry: StoredEntry): void {
    const arena = this.#arena
    entry.arena_from = arena.end
    const request = entry.request_body as string
    if (request !== this.#lastRequest) {
      this.#lastRequest = request
      entry.request_at = arena.put(request)
      entry.request_bytes = arena.end - entry.request_at
      entry.request_body = null
      // Equal by value is not the same string: without this each entry held its own copy (a 64 KB
      // tools/list body, 1 000 of them on the heap at the byte budget; issue 35).
    } else entry.request_body = this.#lastRequest
    const response = entry.response_body as string
    if (response !== this.#lastResponse) {
      this.#lastResponse = response
      entry.response_at = arena.put(response)
      entry.response_bytes = arena.end - entry.response_at
      entry.response_body = null
    } else entry.response_body = this.#lastResponse
  }

  query(q: JournalQuery = {}): { entries: JournalEntry[]; last_seq: number } {
    const limit = q.limit ?? 100
    const matches = this.#entries.filter((e) =>
      (q.since === undefined || e.seq > q.since) &&
      (!q.path || e.path.startsWith(q.path) || e.path.includes(q.path)) &&
      (!q.key_prefix || e.key_prefix?.startsWith(q.key_prefix)) &&
      (!q.method || e.method === q.method.toUpperCase()) &&
      (q.status === undefined || e.status === q.status) &&
      (!q.host || e.host === q.host) &&
      (!q.request_id || e.request_id === q.request_id))
    return { entries: matches.slice(-limit).map((e) => expand(e, this.#arena)), last_seq: this.#seq }
  }

  clear(): void {
    this.#entries.length = 0
    this.#bytes = 0
    this.#arena.clear()
    this.#lastRequest = null
    this.#lastResponse = null
  }

  /** Bytes of the arena holding the kept bodies (outside the JavaScript heap). */
  get arenaBytes(): number {
    return this.#arena.bytes
  }

  /** Entries held and the bytes they are estimated to take (what `maxBytes` bounds). */
  get usage(): { entries: number; bytes: number } {
    return { entries: this.#entries.length, bytes: this.#bytes }
  }

  get lastSeq(): number {
    return this.#seq
  }
}

/**
 * Express middleware that records every exchange of a host except the control plane (a control-plane
 * request the admin gate refuses is recorded: `admits` is the gate's check). Must run
 * before the body parser so it can capture the raw request text.
 */
export function journalMiddleware(journal: Journal, clock: Clock, host: 'base' | 'api', admits: (req: Request) => boolean = () => true) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // The person's own control-plane calls are not journaled; one the admin gate refuses is an
    // attempt from outside (an agent reaching for the person's side) and is, if it is answered 4xx.
    const outsider = req.path.startsWith('/_sandbox') && !admits(req)
    if (req.path.startsWith('/_sandbox') && !outsider) return next()
    const started = performance.now()
    const sandboxMs = clock.now()
    // Read now: a sub-router (e.g. the MCP SDK's OAuth handlers) may still have its prefix stripped at finish.
    const path = req.path
    let responseBody: SentBody = ''
    const send = res.send.bind(res)
    res.send = (body?: unknown) => {
      // Bytes stay bytes: the journal decodes only the window it keeps.
      if (typeof body === 'string' || Buffer.isBuffer(body)) responseBody = body
      return send(body)
    }
    let recorded = false
    const record = (status: number) => {
      if (recorded || (outsider && status < 400)) return
      recorded = true
      journal.recordExchange({
        host, started, sandboxMs, path, status, req, res, query: req.query,
        requestBody: rawBody(req), responseBody: (res.locals[SENT_CHUNKS] as readonly Buffer[] | undefined) ?? responseBody, fault: (res.locals.fault as string | undefined) ?? null,
        requestId: (res.locals.requestId as string | undefined) ?? null,
      })
    }
    res.on('finish', () => record(res.statusCode))
    // A connection a scripted fault dropped before any response is recorded with status 0.
    res.on('close', () => {
      if (res.locals.fault && !res.writableFinished) record(0)
    })
    next()
  }
}

const SENT_CHUNKS = 'journalSentChunks'

/** Answers with a body in chunks (`writeChunks`) and shows the journal what was sent. */
export function sendChunks(res: Response, body: ChunkedBody): void {
  res.locals[SENT_CHUNKS] = body.chunks
  writeChunks(res, body)
}

/** The raw request bytes, kept by the JSON parser's `verify` hook; the journal decodes only what it keeps. */
export function keepRawBody(req: Request, _res: Response, buf: Buffer): void {
  ;(req as Request & { rawBody?: Buffer }).rawBody = buf
}

function rawBody(req: Request): Buffer | string {
  return (req as Request & { rawBody?: Buffer }).rawBody ?? ''
}
