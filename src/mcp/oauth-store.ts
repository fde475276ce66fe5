import { hashKey } from '../domain/access.js'
import { ClientRegistry } from './client-registry.js'

/** An authorization request waiting for the sign-in page to be submitted. */
export interface PendingSignIn {
  id: string
  client_id: string
  redirect_uri: string
  code_challenge: string
  scopes: string[]
  state?: string
  resource?: string
  expires_at: number
  /** The form's anti-CSRF value; a post without it changes nothing. */
  csrf: string
  /** The admin token was presented for this request (a locked sign-in lists accounts only then). */
  unlocked: boolean
  /** Wrong admin tokens so far. */
  attempts: number
}

/** What a sign-in grants: one user acting in one workspace with scopes, for one client. */
export interface Grant {
  id: string
  client_id: string
  user_id: string
  workspace_id: string
  scopes: string[]
  resource?: string
  created_at: number
}

export interface CodeRow {
  grant: Grant
  code_challenge: string
  redirect_uri: string
  expires_at: number
}

export interface TokenRow {
  kind: 'access' | 'refresh'
  grant: Grant
  expires_at: number
}

/**
 * OAuth state of the sandbox's MCP authorization server, in memory (sandbox decision): clients,
 * pending sign-ins, codes and tokens die with the process, like a restarted real server's
 * sessions. Codes and tokens are kept by hash only, as keys are. Times are sandbox epoch ms.
 */
export class OAuthStore {
  readonly clients = new ClientRegistry()
  readonly pending = new Map<string, PendingSignIn>()
  readonly #codes = new Map<string, CodeRow>()
  readonly #tokens = new Map<string, TokenRow>()
  /** Spent codes and rotated refresh tokens (by hash) → their grant, kept until they would have expired. */
  readonly #spent = new Map<string, { grantId: string; expires_at: number }>()

  saveCode(code: string, row: CodeRow): void {
    this.#codes.set(hashKey(code), row)
  }

  peekCode(code: string): CodeRow | undefined {
    return this.#codes.get(hashKey(code))
  }

  /**
   * Removes and returns a code: codes are single use. The spent code is remembered until
   * `keepUntil` (as long as the tokens it bought can live) so that a replay can revoke them.
   */
  takeCode(code: string, keepUntil: number): CodeRow | undefined {
    const hash = hashKey(code)
    const row = this.#codes.get(hash)
    this.#codes.delete(hash)
    if (row) this.#spent.set(hash, { grantId: row.grant.id, expires_at: keepUntil })
    return row
  }

  /** Spends a refresh token on rotation; a second use is then a replay (`revokeIfReplayed`). */
  spendRefresh(token: string): void {
    const row = this.dropToken(token)
    if (row) this.#spent.set(hashKey(token), { grantId: row.grant.id, expires_at: row.expires_at })
  }

  /**
   * A spent code or rotated refresh token presented again (RFC 6749 §4.1.2, RFC 9700 §4.14.2): the
   * whole grant it belonged to is revoked. Returns whether it was such a replay.
   */
  revokeIfReplayed(value: string): boolean {
    const spent = this.#spent.get(hashKey(value))
    if (spent) this.dropGrant(spent.grantId)
    return spent !== undefined
  }

  /**
   * Keeps a pending sign-in, at most `perClient` per client: a client's oldest one gives way, never
   * another client's, so anonymous `/authorize` calls cannot grow memory (clients are capped too).
   */
  addPending(row: PendingSignIn, perClient: number): void {
    const mine = [...this.pending.values()].filter((p) => p.client_id === row.client_id)
    for (const old of mine.slice(0, Math.max(0, mine.length - perClient + 1))) this.pending.delete(old.id)
    this.pending.set(row.id, row)
  }

  /** Whether a client still has a pending sign-in, a code or a token: it must not be forgotten. */
  inUse(clientId: string): boolean {
    for (const row of this.pending.values()) if (row.client_id === clientId) return true
    for (const row of this.#codes.values()) if (row.grant.client_id === clientId) return true
    for (const row of this.#tokens.values()) if (row.grant.client_id === clientId) return true
    return false
  }

  saveToken(token: string, row: TokenRow): void {
    this.#tokens.set(hashKey(token), row)
  }

  token(token: string): TokenRow | undefined {
    return this.#tokens.get(hashKey(token))
  }

  dropToken(token: string): TokenRow | undefined {
    const hash = hashKey(token)
    const row = this.#tokens.get(hash)
    this.#tokens.delete(hash)
    return row
  }

  /** Ends a grant: every access and refresh token issued under it stops working. */
  dropGrant(grantId: string): void {
    for (const [hash, row] of this.#tokens) if (row.grant.id === grantId) this.#tokens.delete(hash)
  }

  /** Forgets everything that expired before `now`, so memory does not grow with use. */
  sweep(now: number): void {
    for (const [id, row] of this.pending) if (row.expires_at <= now) this.pending.delete(id)
    for (const [hash, row] of this.#codes) if (row.expires_at <= now) this.#codes.delete(hash)
    for (const [hash, row] of this.#tokens) if (row.expires_at <= now) this.#tokens.delete(hash)
    for (const [hash, row] of this.#spent) if (row.expires_at <= now) this.#spent.delete(hash)
  }
}
