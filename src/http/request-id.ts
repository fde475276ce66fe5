import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import { REQUEST_ID_HEADER, requestIdOf } from '../support/request-id.js'
import { extend } from '../support/objects.js'

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

/**
 * Express middleware, first on every app: every answer carries `Request-Id` and the journal records
 * it (`res.locals.requestId`); error bodies repeat it as `request_id` (docs/decisions.md).
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.locals.requestId = stampRequestId(req, res)
  next()
}
