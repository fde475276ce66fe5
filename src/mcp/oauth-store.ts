import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js'
import { hashKey } from '../domain/access.js'

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
  readonly clients = new Map<string, OAuthClientInformationFull>()
  readonly pending = new Map<string, PendingSignIn>()
  readonly #codes = new Map<string, CodeRow>()
  readonly #tokens = new Map<string, TokenRow>()

  saveCode(code: string, row: CodeRow): void {
    this.#codes.set(hashKey(code), row)
  }

  peekCode(code: string): CodeRow | undefined {
    return this.#codes.get(hashKey(code))
  }

  /** Removes and returns a code: codes are single use. */
  takeCode(code: string): CodeRow | undefined {
    const hash = hashKey(code)
    const row = this.#codes.get(hash)
    this.#codes.delete(hash)
    return row
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
  }
}
