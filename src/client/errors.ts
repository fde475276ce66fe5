/** What went wrong: the service answered non-2xx (`http`), or no answer (`network`, `timeout`), or the call was refused before sending (`validation`). */
export type ErrorKind = 'http' | 'network' | 'timeout' | 'validation'

/**
 * The one error the client raises (SDK-02): `status` (0 when there was no HTTP answer), `code`
 * (the body's `code`, else `HTTP_<status>`, or `NETWORK_ERROR`/`TIMEOUT`/`VALIDATION_ERROR`), the
 * service's message, the parsed body and the number of attempts made.
 */
export class ServiceError extends Error {
  readonly status: number
  readonly code: string
  readonly body: Record<string, unknown>
  readonly kind: ErrorKind
  attempts = 1
  /** The `Retry-After` header of the answer, if any. */
  retryAfter: string | null = null
  /**
   * The answer's request id — its `Request-Id` header, else the body's `request_id` (a proxy may
   * drop headers): find the exchange in the sandbox's journal (`?request_id=`).
   */
  requestId: string | null

  constructor(status: number, body: Record<string, unknown>, options: { kind?: ErrorKind; cause?: unknown } = {}) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`, { cause: options.cause })
    this.name = 'ServiceError'
    this.status = status
    this.code = typeof body.code === 'string' ? body.code : `HTTP_${status}`
    this.body = body
    this.kind = options.kind ?? 'http'
    this.requestId = typeof body.request_id === 'string' ? body.request_id : null
  }

  /** No HTTP answer: the connection failed or the attempt ran out of time. */
  static transport(kind: 'network' | 'timeout', message: string, cause?: unknown): ServiceError {
    return new ServiceError(0, { error: message, code: kind === 'timeout' ? 'TIMEOUT' : 'NETWORK_ERROR' }, { kind, cause })
  }

  /** Refused before sending (an argument the helper cannot send). */
  static validation(message: string): ServiceError {
    return new ServiceError(0, { error: message, code: 'VALIDATION_ERROR' }, { kind: 'validation' })
  }
}
