import express from 'express'
import type { NextFunction, Request, RequestHandler, Response } from 'express'

// Body errors held back until the request is authenticated (RULES.md Authentication).
const deferred = new WeakMap<Request, unknown>()

/**
 * `express.json` whose refusals wait for authentication: only a body over the limit (413, a framing
 * refusal) answers at once; a malformed or undecodable body is kept and thrown by `bodyOf` or
 * `actorOf` once the caller is known, so an anonymous caller gets 401 whatever it sent.
 */
export function jsonBody(options: Parameters<typeof express.json>[0]): RequestHandler {
  const parse = express.json(options)
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (error?: unknown) => {
      if (!error || (error as { status?: number }).status === 413) return next(error)
      deferred.set(req, error)
      req.body = undefined
      next()
    })
  }
}

/** The parsed JSON body, or the parse error `jsonBody` held back; call it after authenticating. */
export function bodyOf(req: Request): unknown {
  throwDeferredBodyError(req)
  return req.body
}

/** Throws the body error `jsonBody` held back, if any. */
export function throwDeferredBodyError(req: Request): void {
  if (deferred.has(req)) throw deferred.get(req)
}
