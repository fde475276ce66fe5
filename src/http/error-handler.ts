import type { NextFunction, Request, Response } from 'express'
import type { Logger } from 'pino'
import { SandboxError } from '../domain/errors.js'
import { redactText } from '../support/redact.js'
import { withRequestId } from './request-id.js'

/**
 * The only place errors become responses (ERR-01): a `SandboxError` renders as
 * `{error, code, ...details, request_id}`; body-parser failures become 400/413; anything else is a 500 that
 * is logged, since no input should ever cause one.
 */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const sandboxError = errorToRender(logger, error, req.path)
    // A failure after the reply started cannot become a JSON error; end the exchange instead of hanging.
    if (res.headersSent) {
      res.end()
      return
    }
    res.set(sandboxError.headers).status(sandboxError.status).json(withRequestId(sandboxError.toBody(), req, res))
  }
}

/** The `SandboxError` an error renders as; one that should never happen (5xx) is logged. */
export function errorToRender(logger: Logger, error: unknown, path: string): SandboxError {
  const sandboxError = toSandboxError(error)
  if (sandboxError.status >= 500) logger.error({ err: redactError(error), path: redactText(path) }, 'unhandled error')
  return sandboxError
}

/** Unknown routes: JSON 404, with a pointer when a base-host path is used on the api host (REST-04). */
export function notFoundHandler(hint: (path: string) => string | undefined = () => undefined) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const path = redactText(req.baseUrl + req.path)
    next(new SandboxError('ROUTE_NOT_FOUND', { method: req.method, path, hint: hint(path) }))
  }
}

function toSandboxError(error: unknown): SandboxError {
  if (error instanceof SandboxError) return error
  const e = error as { type?: string; status?: number; limit?: number; message?: string }
  if (e?.type === 'entity.too.large') return new SandboxError('PAYLOAD_TOO_LARGE', { limit: `${e.limit} bytes` })
  if (e?.type === 'entity.parse.failed') return new SandboxError('INVALID_REQUEST', { reason: `Malformed JSON body: ${e.message}` })
  if (e?.status && e.status >= 400 && e.status < 500) {
    return new SandboxError('INVALID_REQUEST', { reason: e.message ?? 'Bad request' })
  }
  return new SandboxError('INTERNAL_ERROR', { reason: e?.message ?? String(error) })
}

// Logs never carry key values (KEY-02), even when an error message quotes one.
function redactError(error: unknown): Record<string, unknown> {
  const e = error instanceof Error ? error : new Error(String(error))
  return { type: e.name, message: redactText(e.message), stack: redactText(e.stack ?? '') }
}
