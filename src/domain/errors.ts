/**
 * The one error catalog of the sandbox (ERR-01). Every refusal the sandbox can give has a stable
 * `code`, an HTTP status and a message template here; only the HTTP error handler renders them.
 * Held and blocked writes are not errors: the gate returns them as values.
 */
export const ERROR_CATALOG = {
  AUTHENTICATION_REQUIRED: { status: 401, message: 'Missing or invalid API key: {detail}.' },
  SCOPE_MISSING: { status: 403, message: 'This key lacks the scope `{scope}`.' },
  WORKSPACE_SCOPE_REQUIRED: { status: 403, message: 'This API key is not scoped to a workspace.' },
  WORKSPACE_ACCESS_DENIED: {
    status: 403,
    message: 'The key\'s user is no longer an active member of workspace {workspace_id}.',
  },
  KEY_NOT_OWNED: { status: 403, message: 'A key can only be revoked by its own user.' },
  SELF_REVOCATION: { status: 400, message: 'A key cannot revoke itself; use another key of the same user.' },
  POLICY_BLOCKED: { status: 403, message: 'The workspace safety policy blocks this write: {reason}' },
  SELF_APPROVAL: { status: 403, message: 'No key of the user who submitted a write can approve or reject it; a key of another user with workspace:write, or a named reviewer, can.' },
  REVIEW_NOT_PENDING: {
    status: 409,
    message: 'Audit entry {audit_id} is {audit_status}; only a pending_review write can be approved or rejected.{hint}',
  },
  NOT_FOUND: { status: 404, message: '{what} not found.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No route {method} {path}.{hint}' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method {method} is not allowed on {path}; allowed: {allowed}.' },
  ALREADY_PAUSED: { status: 409, message: 'Campaign {campaign_id} is already paused.' },
  CONFLICT: { status: 409, message: '{reason}' },
  LINK_GONE: { status: 410, message: 'This connect link has {state}.' },
  INSUFFICIENT_CREDITS: { status: 402, message: 'Not enough credits: {needed} needed, {balance} available.' },
  PAYMENT_METHOD_REQUIRED: { status: 402, message: 'A payment method is required before launching ({operation}).' },
  RATE_LIMITED: { status: 429, message: 'Rate limit exceeded for this {scope}; retry after {retry_after} s.' },
  UNKNOWN_SCRIPT: { status: 400, message: "Script '{script_name}' is not in the catalog.{hint}" },
  UNRECOGNIZED_ARGS: { status: 400, message: 'Unrecognized argument(s) for {script_name}: {flags}.' },
  INVALID_ARGS: { status: 400, message: 'Invalid value for {flag}: {reason}.' },
  ACCOUNT_SELECTION_REQUIRED: {
    status: 400,
    message: 'This workspace has {count} connected {platform} ad accounts; ask the user which one to use, then pass account_id or account_name (--account-id / --account-name).',
  },
  UNSUPPORTED_PLATFORM: { status: 400, message: '{reason}' },
  INVALID_REQUEST: { status: 400, message: '{reason}' },
  UNKNOWN_EXAMPLE: { status: 400, message: 'The contract names no example `{example}` for {method} {path}.{hint}' },
  MULTIPLE_CREDENTIALS: {
    status: 400,
    message: 'Send one credential per request; got different keys in {headers}.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body exceeds {limit}.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers are too large.' },
  EXPECTATION_FAILED: { status: 417, message: 'Unsupported Expect header; only `Expect: 100-continue` is supported.' },
  HOST_NOT_ALLOWED: { status: 403, message: 'Host {host} is not a name this sandbox is bound to (DNS-rebinding protection).' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Origin {origin} may not call hosted MCP: only this sandbox\'s own origin or a loopback origin may.' },
  SIGN_IN_REFUSED: { status: 403, message: 'Sign-in refused: {reason}.' },
  ADMIN_TOKEN_REQUIRED: { status: 401, message: 'The control plane needs a valid X-Sandbox-Admin header.{hint}' },
  ADMIN_TOKEN_RATE_LIMITED: { status: 429, message: 'Too many wrong admin tokens from this client; retry after {retry_after} s.{hint}' },
  CONSOLE_LINK_INVALID: { status: 401, message: 'This console sign-in link is unknown or was already used: each link signs in once.{hint}' },
  STORAGE_UNAVAILABLE: {
    status: 503,
    message: 'The sandbox could not write its state file ({reason}); nothing of this request was applied. Retry after {retry_after} s.',
  },
  INTERNAL_ERROR: { status: 500, message: 'Internal sandbox error: {reason}' },
} as const satisfies Record<string, { status: number; message: string }>

export type ErrorCode = keyof typeof ERROR_CATALOG

/** Extra fields a refusal carries next to `error` and `code` (e.g. `scope`, `flag`, `hint`). */
export type ErrorDetails = Record<string, unknown>

/** The single error type of the sandbox: a catalog code, its status and the rendered message. */
export class SandboxError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: ErrorDetails
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
    const limit = Error.stackTraceLimit
    // A refusal (4xx) is an answer, not a fault: its stack is never logged or shown, and capturing
    // one cost more than the rest of a refused write (bench/README.md). A 5xx keeps its stack.
    if (ERROR_CATALOG[code].status < 500) Error.stackTraceLimit = 0
    try {
      super(renderMessage(ERROR_CATALOG[code].message, details))
    } finally {
      Error.stackTraceLimit = limit
    }
    this.name = 'SandboxError'
    this.code = code
    this.status = ERROR_CATALOG[code].status
    this.details = details
    this.headers = headers
  }

  /** The JSON body the HTTP layer sends: `{error, code, ...details}`. */
  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...publicDetails(this.details) }
  }
}

/** Shorthand for the common "this thing does not exist (here)" refusal (KEY-12). */
export function notFound(what: string): SandboxError {
  return new SandboxError('NOT_FOUND', { what })
}

/** Shorthand for a 400 on a malformed body or parameter. */
export function invalidRequest(reason: string, field?: string): SandboxError {
  return new SandboxError('INVALID_REQUEST', field === undefined ? { reason } : { reason, field })
}

function renderMessage(template: string, details: ErrorDetails): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = details[name]
    if (value === undefined) return name === 'hint' ? '' : `{${name}}`
    if (name === 'hint') return ` ${String(value)}`
    return Array.isArray(value) ? value.join(', ') : String(value)
  })
}

// Template-only fields (`what`, `reason`) stay out of the body; everything else is useful data.
function publicDetails(details: ErrorDetails): ErrorDetails {
  const { what: _what, reason: _reason, detail: _detail, ...rest } = details
  return rest
}
