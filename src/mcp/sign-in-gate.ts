import { createHash, timingSafeEqual } from 'node:crypto'
import type { Request } from 'express'
import { isLoopbackAddress } from './loopback.js'

/** Wrong admin tokens one pending sign-in tolerates before it is dropped (start again from the client). */
export const MAX_TOKEN_ATTEMPTS = 5

/**
 * Who may sign in on the hosted-MCP sign-in page (sandbox decision, docs/security.md "Signing in
 * to hosted MCP"). With an admin token set, or on a connection that is not from loopback, the page
 * first asks for the admin token (a form field, never a URL) and lists users and workspaces only
 * after it; on loopback without a token it stays one click. Loopback is the socket's address,
 * never the `Host` header, and a request relayed by a proxy is not loopback.
 */
export class SignInGate {
  readonly #digest: Buffer | null
  readonly #guesses: GuessCounter | null

  /** `guesses`: the control plane's per-client guess limit, so the sign-in form is no way around it (issue 33). */
  constructor(adminToken: string | null, guesses: GuessCounter | null = null) {
    this.#digest = adminToken ? digest(adminToken) : null
    this.#guesses = guesses
  }

  /** Whether this client has used up its wrong admin tokens for now (the control plane's limit). */
  limited(req: Request): boolean {
    return this.#guesses?.limited(req) != null
  }

  /** Whether this request must present the admin token before seeing accounts or getting a code. */
  locked(req: Request): boolean {
    // A request relayed by a proxy (Forwarded, X-Forwarded-For) comes from whoever the proxy serves.
    const relayed = req.headers.forwarded !== undefined || req.headers['x-forwarded-for'] !== undefined
    return this.#digest !== null || relayed || !isLoopbackAddress(req.socket.remoteAddress)
  }

  /** Whether an admin token is configured at all (off loopback without one, nobody can sign in). */
  get hasToken(): boolean {
    return this.#digest !== null
  }

  /**
   * Compares digests, so a value of another length (in bytes or characters) is simply wrong. With
   * `req`, a limited client is refused without a comparison and a wrong token spends one of its guesses.
   */
  accepts(given: unknown, req?: Request): boolean {
    if (req && this.limited(req)) return false
    const ok = this.#digest !== null && typeof given === 'string' && given !== '' && timingSafeEqual(digest(given), this.#digest)
    if (!ok && req && this.#digest !== null) this.#guesses?.spendGuess(req)
    return ok
  }
}

/** The control plane's guess limit as the sign-in page uses it (`AdminGate` has this shape). */
export interface GuessCounter {
  limited(req: Request): unknown
  spendGuess(req: Request): void
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}
