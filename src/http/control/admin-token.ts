import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import { SandboxError } from '../../domain/errors.js'
import { ConsoleSessions, consoleCookie } from './console-sessions.js'
import { GuessLimiter } from './guess-limiter.js'
import type { GuessLimit } from './guess-limiter.js'

/** The one header that carries the admin token (never a query, a cookie or `Authorization`). */
export const ADMIN_HEADER = 'x-sandbox-admin'

const HINT = 'The control plane is the person\'s side of the sandbox: send the admin token it printed at start '
  + '(serve\'s banner, or sandbox.adminToken) in the X-Sandbox-Admin header. API keys do not open it (docs/control-plane.md).'

/** A fresh admin token: 32 random bytes, base64url, prefixed so it is recognisable (and redactable). */
export function generateAdminToken(): string {
  return `sbx_admin_${randomBytes(32).toString('base64url')}`
}

/**
 * Who may use the control plane and the console (issue 33, docs/security.md "Who may approve
 * what"): a request carrying the admin token in `X-Sandbox-Admin`, or a browser signed in to the
 * console (its session cookie; a write also needs a same-origin `Origin`). Wrong or missing
 * credentials are limited per client address (`GuessLimiter`). With no token (`--open-control-plane`)
 * everyone may.
 */
export class AdminGate {
  readonly sessions = new ConsoleSessions()
  readonly #digest: Buffer | null
  readonly #limiter: GuessLimiter

  /** `now` is the wall clock of the guess limit (a test's fake one); never the sandbox clock an admin moves. */
  constructor(token: string | null, options: { limit?: GuessLimit; now?: () => number } = {}) {
    this.#digest = token === null ? null : digest(token)
    this.#limiter = new GuessLimiter(options.limit, options.now)
  }

  /** True when the control plane is open to anyone (no token). */
  get open(): boolean {
    return this.#digest === null
  }

  /** Whether a request may pass, without spending a guess: the fast paths' check. */
  admits(req: IncomingMessage): boolean {
    return this.open || (this.#limiter.retryAfter(client(req)) === 0 && this.#credentialed(req))
  }

  /** Null when the request may pass; else the refusal (401, or 429 for a client out of guesses), after spending a guess. */
  refusal(req: IncomingMessage): SandboxError | null {
    if (this.open) return null
    const wait = this.#limiter.retryAfter(client(req))
    if (wait > 0) return limited(wait)
    if (this.#credentialed(req)) return null
    this.#limiter.spend(client(req))
    return new SandboxError('ADMIN_TOKEN_REQUIRED', { hint: HINT })
  }

  /** The 429 for a client with no guess left, else null. Spends nothing. */
  limited(req: IncomingMessage): SandboxError | null {
    const wait = this.#limiter.retryAfter(client(req))
    return wait > 0 ? limited(wait) : null
  }

  /** Records a wrong credential of another kind (a console sign-in ticket) against the client's guesses. */
  spendGuess(req: IncomingMessage): void {
    this.#limiter.spend(client(req))
  }

  #credentialed(req: IncomingMessage): boolean {
    const header = req.headers[ADMIN_HEADER]
    // Node joins a repeated custom header into one string, so two tokens never match one.
    if (typeof header === 'string' && header !== '') return timingSafeEqual(digest(header), this.#digest!)
    return this.sessions.has(consoleCookie(req.headers.cookie)) && sameOrigin(req)
  }
}

/** Express middleware of the control router: `AdminGate.refusal` as a JSON error. */
export function requireAdminToken(gate: AdminGate) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    next(gate.refusal(req) ?? undefined)
  }
}

function limited(wait: number): SandboxError {
  return new SandboxError('ADMIN_TOKEN_RATE_LIMITED', { retry_after: wait, hint: HINT }, { 'Retry-After': String(wait) })
}

// A cookie rides along on any same-site request (other localhost ports too): a write must say it came from this origin.
function sameOrigin(req: IncomingMessage): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true
  const origin = req.headers.origin
  if (typeof origin !== 'string') return false
  try {
    return new URL(origin).host === req.headers.host
  } catch {
    return false
  }
}

function client(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown'
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}
