import type { Response } from 'express'
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js'
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { AccessDeniedError, InvalidGrantError, InvalidRequestError, InvalidScopeError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type { Deps } from '../domain/ports.js'
import { ALL_SCOPES, isKnownScope } from '../domain/scopes.js'
import type { Grant, PendingSignIn } from './oauth-store.js'
import { OAuthStore } from './oauth-store.js'
import { sendSignInPage, signInChoices } from './sign-in-page.js'
import { checkCodeChallenge, verifyCodeVerifier } from './pkce.js'
import type { SignInGate } from './sign-in-gate.js'

const MINUTE = 60_000
/** Lifetimes on the sandbox clock (sandbox decision; advance the clock to expire them). */
export const OAUTH_TTL = { signIn: 10 * MINUTE, code: 10 * MINUTE, access: 60 * MINUTE, refresh: 30 * 24 * 60 * MINUTE }
/** Open sign-in pages per client (sandbox decision): the 21st replaces that client's oldest. */
export const MAX_PENDING_PER_CLIENT = 20

/**
 * The sandbox's own OAuth 2.1 authorization server for hosted MCP (MCP-01), behind the SDK's
 * `mcpAuthRouter`: bounded dynamic registration, authorization code + PKCE (verified here, so the
 * verifier's format is checked too), a sign-in page that picks a sandbox user and workspace (behind
 * the admin token when `SignInGate` locks it), refresh with rotation, revocation. A replayed code or
 * rotated refresh token revokes its whole grant. Every token is bound to one user, one workspace
 * and its scopes.
 */
export class SandboxOAuthProvider implements OAuthServerProvider {
  readonly store = new OAuthStore()
  /** PKCE is checked in `exchangeAuthorizationCode`, where the verifier's format can be refused. */
  readonly skipLocalPkceValidation = true
  readonly #deps: Deps
  readonly #signInPath: string
  readonly gate: SignInGate

  constructor(deps: Deps, options: { signInPath: string; gate: SignInGate }) {
    this.#deps = deps
    this.#signInPath = options.signInPath
    this.gate = options.gate
  }

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.store.clients.get(id),
      registerClient: (client) => this.store.clients.register(client as OAuthClientInformationFull, this.#now(), (id) => this.store.inUse(id)),
    }
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const requested = params.scopes ?? []
    const unknown = requested.filter((s) => !isKnownScope(s))
    if (unknown.length > 0) throw new InvalidScopeError(`Unknown scope(s): ${unknown.join(', ')}. Supported: ${ALL_SCOPES.join(' ')}`)
    checkCodeChallenge(params.codeChallenge)
    const now = this.#now()
    this.store.sweep(now)
    this.store.clients.touch(client.client_id, now)
    const pending: PendingSignIn = {
      id: this.#deps.ids.next('signin'),
      client_id: client.client_id,
      redirect_uri: params.redirectUri,
      code_challenge: params.codeChallenge,
      scopes: requested.length > 0 ? [...new Set(requested)] : [...ALL_SCOPES],
      state: params.state,
      resource: params.resource?.href,
      expires_at: now + OAUTH_TTL.signIn,
      csrf: this.#deps.ids.secret(32),
      unlocked: false,
      attempts: 0,
    }
    this.store.addPending(pending, MAX_PENDING_PER_CLIENT)
    this.renderSignIn(res, pending)
  }

  /** The sign-in page for a pending request: the admin-token step while locked, else the accounts. */
  renderSignIn(res: Response, pending: PendingSignIn, status = 200): void {
    const client = this.store.clients.get(pending.client_id)
    const open = pending.unlocked || !this.gate.locked(res.req)
    sendSignInPage(res, status, {
      action: this.#signInPath, requestId: pending.id, csrf: pending.csrf, clientName: client?.client_name ?? pending.client_id,
      scopes: pending.scopes, choices: open ? signInChoices(this.#deps) : null, tokenConfigured: this.gate.hasToken,
    })
  }

  /** A live pending sign-in, or `invalid_request`. */
  pendingSignIn(requestId: string): PendingSignIn {
    const pending = this.store.pending.get(requestId)
    if (!pending || pending.expires_at <= this.#now()) throw new InvalidRequestError('This sign-in request is unknown or expired; start again from the MCP client.')
    return pending
  }

  /**
   * The sign-in page's answer: a code for the chosen user and workspace, or `access_denied`.
   * Returns where to redirect the user agent. The caller has checked the form (origin, CSRF, gate).
   */
  completeSignIn(requestId: string, choice: { user_id: string; workspace_id: string } | 'deny'): string {
    const pending = this.pendingSignIn(requestId)
    const target = new URL(pending.redirect_uri)
    if (pending.state !== undefined) target.searchParams.set('state', pending.state)
    if (choice === 'deny') {
      this.store.pending.delete(requestId)
      target.searchParams.set('error', new AccessDeniedError('').errorCode)
      target.searchParams.set('error_description', 'The user declined the sign-in.')
      return target.href
    }
    if (!signInChoices(this.#deps).some((c) => c.user_id === choice.user_id && c.workspace_id === choice.workspace_id)) {
      throw new InvalidRequestError(`${choice.user_id} is not an active member of ${choice.workspace_id}.`)
    }
    this.store.pending.delete(requestId)
    const grant: Grant = {
      id: this.#deps.ids.next('oag'), client_id: pending.client_id, user_id: choice.user_id, workspace_id: choice.workspace_id,
      scopes: pending.scopes, resource: pending.resource, created_at: this.#now(),
    }
    const code = `mcp_ac_${this.#deps.ids.secret(40)}`
    this.store.saveCode(code, { grant, code_challenge: pending.code_challenge, redirect_uri: pending.redirect_uri, expires_at: this.#now() + OAUTH_TTL.code })
    target.searchParams.set('code', code)
    return target.href
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    return this.#liveCode(client, code).code_challenge
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const row = this.#liveCode(client, code)
    verifyCodeVerifier(verifier, row.code_challenge)
    if (redirectUri !== undefined && redirectUri !== row.redirect_uri) throw new InvalidGrantError('redirect_uri does not match the authorization request')
    if (resource && row.grant.resource && !sameResource(resource.href, row.grant.resource)) throw new InvalidGrantError('resource does not match the authorization request')
    this.store.takeCode(code, this.#now() + OAUTH_TTL.refresh)
    return this.#issue(row.grant)
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[]): Promise<OAuthTokens> {
    const row = this.store.token(refreshToken)
    if (!row && this.store.revokeIfReplayed(refreshToken)) {
      throw new InvalidGrantError('This refresh token was already used; every token of its sign-in is now revoked. Sign in again.')
    }
    if (!row || row.kind !== 'refresh' || row.grant.client_id !== client.client_id || row.expires_at <= this.#now()) {
      throw new InvalidGrantError('The refresh token is unknown, expired or was issued to another client.')
    }
    const wider = (scopes ?? []).filter((s) => !row.grant.scopes.includes(s))
    if (wider.length > 0) throw new InvalidScopeError(`A refresh cannot add scopes: ${wider.join(', ')}`)
    // Rotation (OAuth 2.1 for public clients): the old refresh token is spent; its reuse is a replay.
    this.store.spendRefresh(refreshToken)
    const grant = scopes && scopes.length > 0 ? { ...row.grant, scopes } : row.grant
    return this.#issue(grant)
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const row = this.store.token(token)
    if (!row || row.kind !== 'access') throw new InvalidTokenError('The access token is not valid here; sign in again.')
    if (row.expires_at <= this.#now()) throw new InvalidTokenError('The access token has expired (sandbox clock); refresh it or sign in again.')
    const { grant } = row
    return {
      token, clientId: grant.client_id, scopes: grant.scopes, expiresAt: Math.floor(row.expires_at / 1000),
      ...(grant.resource ? { resource: new URL(grant.resource) } : {}),
      extra: { grant },
    }
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const row = this.store.token(request.token)
    if (!row || row.grant.client_id !== client.client_id) return
    if (row.kind === 'refresh') this.store.dropGrant(row.grant.id)
    else this.store.dropToken(request.token)
  }

  #liveCode(client: OAuthClientInformationFull, code: string) {
    const row = this.store.peekCode(code)
    if (!row && this.store.revokeIfReplayed(code)) {
      throw new InvalidGrantError('This authorization code was already used; the tokens issued for it are now revoked.')
    }
    if (!row || row.grant.client_id !== client.client_id || row.expires_at <= this.#now()) {
      throw new InvalidGrantError('The authorization code is unknown, used, expired or was issued to another client.')
    }
    return row
  }

  #issue(grant: Grant): OAuthTokens {
    const now = this.#now()
    this.store.sweep(now)
    this.store.clients.touch(grant.client_id, now)
    const access = `mcp_at_${this.#deps.ids.secret(40)}`
    const refresh = `mcp_rt_${this.#deps.ids.secret(40)}`
    this.store.saveToken(access, { kind: 'access', grant, expires_at: now + OAUTH_TTL.access })
    this.store.saveToken(refresh, { kind: 'refresh', grant, expires_at: now + OAUTH_TTL.refresh })
    return { access_token: access, token_type: 'Bearer', expires_in: OAUTH_TTL.access / 1000, refresh_token: refresh, scope: grant.scopes.join(' ') }
  }

  #now(): number {
    return this.#deps.clock.now()
  }
}

/** Same resource URL, ignoring a fragment and one trailing slash (RFC 8707 audience check). */
export function sameResource(a: string, b: string): boolean {
  const norm = (u: string) => u.split('#')[0].replace(/\/$/, '')
  return norm(a) === norm(b)
}
