import type { IncomingMessage } from 'node:http'
import { fastPathAllowed } from './fast-path.js'
import type { AppContext } from './context.js'

/** express.json's limit on the base host and the control plane (`JSON_LIMIT`, 1 MB). */
const BODY_LIMIT = 1024 * 1024
// The content types express.json reads as UTF-8 JSON without a charset conversion.
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8'])

/**
 * The body length of a POST a fast path may read itself: a plain JSON content type and a
 * `Content-Length` within the limit, or null to leave the request to express.
 */
export function plainJsonLength(ctx: AppContext, req: IncomingMessage): number | null {
  if (req.method !== 'POST' || !fastPathAllowed(ctx, req)) return null
  if (!JSON_TYPES.has((req.headers['content-type'] ?? '').toLowerCase())) return null
  const length = Number(req.headers['content-length'] ?? NaN)
  return Number.isInteger(length) && length > 0 && length <= BODY_LIMIT ? length : null
}

/**
 * Reads exactly `length` bytes without ending the stream, so they can still be pushed back
 * (`unshift`) for express. A connection that closes first gets null and is left to express too.
 */
export function readBody(req: IncomingMessage, length: number, done: (body: Buffer | null) => void): void {
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

/**
 * Reads the body and hands `take` the plain object express.json (strict) would give the route.
 * Anything else (malformed JSON, an array, a closed connection, an object `take` declines) is pushed
 * back onto the request and handed to `fallBack`, which express then reads as if it were first.
 */
export function readJsonObject(req: IncomingMessage, length: number, handlers: { take: (input: object, text: string) => void | false; fallBack: () => void }): void {
  readBody(req, length, (body) => {
    const text = body?.toString('utf8') ?? ''
    const input = body === null ? undefined : jsonObject(text)
    // `take` may decline the object too (`false`): express then reads the very bytes that came.
    if (body === null || input === undefined || handlers.take(input, text) === false) {
      if (body) req.unshift(body)
      handlers.fallBack()
    }
  })
}

// A JSON object's text starts with `{` after JSON whitespace, so strict mode's first-character check holds.
function jsonObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}
