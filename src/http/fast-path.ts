import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { AppContext } from './context.js'
import type { Reply } from './reply.js'
import { activeFaultRules } from './faults.js'
import { errorToRender } from './error-handler.js'
import { bodyToWrite, jsonText } from './json-text.js'
import { replyBody, stampRequestId, withRequestId } from './request-id.js'
import type { ChunkedBody } from './write-chunks.js'
import { writeChunks } from './write-chunks.js'
import type { SentBody } from './journal-body.js'

// Present on a request express would treat specially (a conditional GET that may be a 304, an
// `Expect: 100-continue` handshake, a compressed body, a `Prefer` for a scripted answer).
const UNUSUAL_HEADERS = ['if-none-match', 'if-modified-since', 'expect', 'content-encoding', 'transfer-encoding', 'prefer']

/**
 * Whether a fast path may answer at all: no scripted fault is active (faults are express
 * middleware) and no header asks for handling the fast paths do not reproduce.
 */
export function fastPathAllowed(ctx: AppContext, req: IncomingMessage): boolean {
  return !UNUSUAL_HEADERS.some((name) => req.headers[name] !== undefined) && activeFaultRules(ctx).length === 0
}

/** What a fast path answers: the request, its response, and how the journal names it. */
export interface FastTarget {
  host: 'base' | 'api'
  path: string
  query: unknown
  req: IncomingMessage
  res: ServerResponse
  /** False on the control plane, which the journal does not record (as `journalMiddleware` skips `/_sandbox`). */
  journaled?: boolean
}

/**
 * An exchange a fast path may answer, timed from when it was seen. Once answered it is recorded in
 * the journal when it finishes, as the express middleware records the others.
 */
export class FastExchange {
  readonly #started = performance.now()
  readonly #sandboxMs: number
  readonly #requestId: string
  /** The request's body text, for the journal (the fast run path reads it before answering). */
  requestBody = ''

  constructor(
    private readonly ctx: AppContext,
    private readonly target: FastTarget,
  ) {
    this.#sandboxMs = ctx.clock.now()
    this.#requestId = stampRequestId(target.req, target.res)
  }

  /** Sends a reply once the flush holding its change is written (group commit), as express's `handle` does. */
  replyAfterCommit(reply: Reply): void {
    this.ctx.deps.store.commit().then(
      () => this.send(reply.status ?? 200, reply.headers ?? {}, jsonText(replyBody(reply.status ?? 200, reply.body, this.target.req, this.target.res))),
      (error: unknown) => this.fail(error),
    )
  }

  /** Renders an error as express's error handler does. */
  fail(error: unknown): void {
    const failure = errorToRender(this.ctx.logger, error, this.target.path)
    this.send(failure.status, failure.headers, JSON.stringify(withRequestId(failure.toBody(), this.target.req, this.target.res)))
  }

  /** Sends a body in chunks (a kept listing), as `sendChunks` does on the express path. */
  sendChunks(headers: Record<string, string>, body: ChunkedBody): void {
    this.#journalOnFinish(body.chunks)
    for (const [name, value] of Object.entries(headers)) this.target.res.setHeader(name, value)
    writeChunks(this.target.res, body)
  }

  #journalOnFinish(responseBody: SentBody): void {
    const { host, path, query, req, res, journaled = true } = this.target
    if (journaled) res.on('finish', () => this.ctx.journal.recordExchange({
      host, started: this.#started, sandboxMs: this.#sandboxMs, path, query, status: res.statusCode, req, res,
      requestBody: this.requestBody, responseBody, fault: null, requestId: this.#requestId,
    }))
  }

  // As express's `res.set(headers).status(status).json(body)` writes it.
  private send(status: number, headers: Record<string, string>, text: string): void {
    const { res } = this.target
    this.#journalOnFinish(text)
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
    const body = bodyToWrite(text)
    res.setHeader('Content-Type', 'application/json; charset=utf-8')
    res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length)
    res.statusCode = status
    res.end(body)
  }
}

/**
 * A fast path a surface adds once it is loaded (hosted MCP's `tools/list`, which loads on its
 * first request): it answers and returns true, or returns false having touched nothing. It may
 * also read the body and then hand the request to `fallBack` (express) with the body pushed back.
 */
export type LateFastPath = (req: IncomingMessage, res: ServerResponse, fallBack: () => void) => boolean

/** The base host's listener for the late fast paths in `ctx.lateFastPaths`, in front of `app`. */
export function withLateFastPaths(ctx: AppContext, app: RequestListener): RequestListener {
  return (req, res) => {
    for (const path of ctx.lateFastPaths.values()) if (path(req, res, () => app(req, res))) return
    app(req, res)
  }
}
