import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { AppContext } from './context.js'
import type { Caller } from '../domain/access.js'
import type { Reply } from './reply.js'
import { markUsed } from '../domain/access.js'
import { authenticateRequest } from './credential-hints.js'
import { FastExchange, fastPathAllowed } from './fast-path.js'
import { runTool } from './routes/tools.js'

const RUN_PATH = '/api/v1/tools/run'
/** express.json's limit on the base host (`JSON_LIMIT`, 1 MB). */
const BODY_LIMIT = 1024 * 1024
// The content types express.json reads as UTF-8 JSON without a charset conversion.
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8'])

/**
 * The base host's request listener: `POST /api/v1/tools/run` (DISP-01) with a plain JSON object
 * body is answered without express, by the route's own `runTool`, because express's per-request
 * work was most of the dispatcher's cost (bench/README.md). The body is read first; anything
 * express would parse differently (another content type or encoding, no length, a body that is not
 * a JSON object) is pushed back onto the request and handed to `app`, which then reads it as if
 * it were first. Once the body is a JSON object, every outcome (success, held, blocked, a refusal)
 * is the route's and renders as express renders it.
 */
export function withFastRuns(ctx: AppContext, app: RequestListener): RequestListener {
  return (req, res) => {
    const length = plainLength(ctx, req)
    if (length === null) return app(req, res)
    const exchange = new FastExchange(ctx, { host: 'base', path: RUN_PATH, query: {}, req, res })
    readBody(req, length, (body) => {
      const text = body?.toString('utf8') ?? ''
      const input = body === null ? undefined : jsonObject(text)
      if (body === null || input === undefined) {
        if (body) req.unshift(body)
        return app(req, res)
      }
      exchange.requestBody = text
      answer(ctx, exchange, req, input)
    })
  }
}

function answer(ctx: AppContext, exchange: FastExchange, req: IncomingMessage, input: object): void {
  let caller: Caller | undefined
  let reply: Reply
  try {
    reply = runTool(ctx, { input: () => input, caller: () => (caller = authenticateRequest(ctx.deps, req, 'tools')), surface: 'rest' })
  } catch (error) {
    return exchange.fail(error)
  }
  // As `handle` does: only a request that succeeded marks its key used.
  if (caller && (reply.status ?? 200) < 400) markUsed(ctx.deps, caller)
  exchange.replyAfterCommit(reply)
}

/** The body length of a request this path may take, or null to leave it to express. */
function plainLength(ctx: AppContext, req: IncomingMessage): number | null {
  if (req.method !== 'POST' || req.url !== RUN_PATH || !fastPathAllowed(ctx, req)) return null
  if (!JSON_TYPES.has((req.headers['content-type'] ?? '').toLowerCase())) return null
  const length = Number(req.headers['content-length'] ?? NaN)
  return Number.isInteger(length) && length > 0 && length <= BODY_LIMIT ? length : null
}

/**
 * Reads exactly `length` bytes without ending the stream, so they can still be pushed back
 * (`unshift`) for express. A connection that closes first gets null and is left to express too.
 */
function readBody(req: IncomingMessage, length: number, done: (body: Buffer | null) => void): void {
  const chunks: Buffer[] = []
  let size = 0
  const finish = (body: Buffer | null) => {
    req.off('readable', onReadable).off('close', onClose)
    done(body)
  }
  const onReadable = () => {
    let chunk: Buffer | null
    while (size < length && (chunk = req.read(Math.min(req.readableLength, length - size) || undefined) as Buffer | null) !== null) {
      chunks.push(chunk)
      size += chunk.length
    }
    if (size >= length) finish(Buffer.concat(chunks, size))
  }
  const onClose = () => {
    if (size > 0) req.unshift(Buffer.concat(chunks, size))
    finish(null)
  }
  req.on('readable', onReadable).on('close', onClose)
}

// What express.json (strict) would hand the route as a plain object, or undefined when it would not.
// A JSON object's text starts with `{` after JSON whitespace, so strict mode's first-character check holds.
function jsonObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}
