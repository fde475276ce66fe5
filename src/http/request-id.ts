import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import { redactText } from '../support/redact.js'
import { extend } from '../support/objects.js'

/** The response header that names a request (Stripe's name for it); a client may send its own. */
export const REQUEST_ID_HEADER = 'Request-Id'

// Bounded and plain, so it can be echoed in a header and searched for (sandbox decision).
const VALID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The id of a request (issue 19 item 2): the client's own `Request-Id` (or `X-Request-Id`) when it
 * is 1-128 characters of letters, digits and `. _ : -` and spells no key value, else a new
 * `req_…`. An invalid one is replaced, never echoed.
 */
export function requestIdOf(req: IncomingMessage): string {
  for (const name of ['request-id', 'x-request-id']) {
    const sent = req.headers[name]
    const value = Array.isArray(sent) ? sent[0] : sent
    // A key value sent as an id would be echoed, journaled and put in error bodies (KEY-02): replaced.
    if (value !== undefined && VALID.test(value) && redactText(value) === value) return value
  }
  return newRequestId()
}

/** Names the response (`Request-Id`) and returns the id, for the journal. */
export function stampRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req)
  res.setHeader(REQUEST_ID_HEADER, id)
  return id
}

/**
 * An error body naming its request: `{error, code, ...details, request_id}`, the same value as the
 * answer's `Request-Id` header (issue 19 item 2, docs/errors.md). An answer not yet stamped gets
 * its id now, so header and body always agree.
 */
export function withRequestId(body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse): Record<string, unknown> {
  const stamped = res.getHeader(REQUEST_ID_HEADER)
  const id = typeof stamped === 'string' ? stamped : stampRequestId(req, res)
  return extend(body, { request_id: id })
}

/**
 * A route's reply body as sent: a refusal the route returns as a value (a blocked write's 403, a
 * failed write's 409 with its refund) is an error body like the thrown ones, so it names its
 * request too; anything else is sent as it is.
 */
export function replyBody(status: number, body: unknown, req: IncomingMessage, res: ServerResponse): unknown {
  if (status < 400 || !body || typeof body !== 'object' || Array.isArray(body)) return body
  const fields = body as Record<string, unknown>
  return typeof fields.error === 'string' && typeof fields.code === 'string' ? withRequestId(fields, req, res) : body
}

// Random bytes are drawn in blocks: one randomBytes call per request was ≈ 4 % of a fast read's CPU (bench/README.md).
const ID_BYTES = 9
const POOL_BYTES = ID_BYTES * 512
let pool = Buffer.alloc(0)
let taken = 0

/** A fresh id (72 random bits), also for an answer to bytes Node could not parse as a request (no header to read). */
export function newRequestId(): string {
  if (taken + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES)
    taken = 0
  }
  taken += ID_BYTES
  return `req_${pool.toString('base64url', taken - ID_BYTES, taken)}`
}

/**
 * Express middleware, first on every app: every answer carries `Request-Id` and the journal records
 * it (`res.locals.requestId`); error bodies repeat it as `request_id` (docs/decisions.md).
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.locals.requestId = stampRequestId(req, res)
  next()
}
