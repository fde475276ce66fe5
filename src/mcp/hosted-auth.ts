import type { NextFunction, Request, RequestHandler, Response } from 'express'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js'
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type { Actor } from '../domain/access.js'
import { authenticate, resolveWorkspace } from '../domain/access.js'
import type { Deps } from '../domain/ports.js'
import { SandboxError } from '../domain/errors.js'
import { iso } from '../domain/durations.js'
import type { Grant } from './oauth-store.js'
import { sameResource } from './oauth-provider.js'
import { REQUEST_ID_HEADER } from '../support/request-id.js'
import type { KeyHeaders } from '../http/credentials.js'
import { NO_KEY_HEADERS, acceptedHeaders, displayName, readCredential } from '../http/credentials.js'
import { naming } from '../http/credential-hints.js'

/** Who is calling hosted MCP, resolved for this request; sessions are bound to `principal`. */
export interface HostedCaller {
  actor: Actor
  principal: string
}

export interface HostedAuthOptions {
  deps: Deps
  verifier: OAuthTokenVerifier
  /** Configured key header names, read like `X-Service-Key` (`serve --key-header`, issue 35). */
  keyHeaders?: () => KeyHeaders
  /** This host's MCP resource URL and its protected-resource metadata URL, per request origin. */
  urls(req: Request): { resource: string; metadata: string }
}

/**
 * Authentication of hosted MCP (MCP-01..03). Accepted: a workspace-pinned key in `X-Service-Key`
 * (or a configured key header, `--key-header`), or an OAuth access token in `Authorization: Bearer`. Anything else in `Authorization` (an API
 * key included) is answered like a missing sign-in: 401 with `WWW-Authenticate: Bearer
 * resource_metadata="…"` and an OAuth error body, never a key error (MCP-02). The workspace comes
 * from the key's pin or the token's grant; no header can change it (MCP-03).
 */
export function hostedAuth(options: HostedAuthOptions): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const urls = options.urls(req)
    const extra = options.keyHeaders?.() ?? NO_KEY_HEADERS
    try {
      const serviceKey = readCredential(req, 'mcp', extra)
      const authorization = credentialLine(req, 'authorization')
      if (serviceKey && authorization) throw new SandboxError('MULTIPLE_CREDENTIALS', { headers: [...keyHeaderNames(req, extra), 'Authorization'] })
      const caller = serviceKey ? keyCaller(options.deps, serviceKey) : await tokenCaller(options, authorization, urls.resource, extra)
      res.locals.mcpCaller = caller
      next()
    } catch (error) {
      if (error instanceof InvalidTokenError) return challenge(res, urls.metadata, error.message, keyHeaderWords(extra))
      if (error instanceof SandboxError && error.status === 401) {
        const named = naming(error, [...acceptedHeaders('mcp', extra), 'authorization']) as SandboxError
        return next(new SandboxError(named.code, named.details, { 'WWW-Authenticate': `Bearer resource_metadata="${urls.metadata}"` }))
      }
      next(error)
    }
  }
}

/**
 * The one value of `Authorization`, read from the raw lines: two lines with different values are
 * 400 MULTIPLE_CREDENTIALS, as on the REST surfaces (and for key headers, `readCredential`),
 * because Node would join or drop them and a proxy and the sandbox could disagree about who is
 * calling; the same value twice is one credential.
 */
function credentialLine(req: Request, name: 'authorization'): string | null {
  const values = new Set<string>()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const value = req.rawHeaders[i + 1]?.trim()
    if (value && req.rawHeaders[i].toLowerCase() === name) values.add(value)
  }
  if (values.size > 1) throw new SandboxError('MULTIPLE_CREDENTIALS', { headers: ['Authorization'] })
  return values.values().next().value ?? null
}

/** The key headers a request sent, as written (for the MULTIPLE_CREDENTIALS answer). */
function keyHeaderNames(req: Request, extra: KeyHeaders): string[] {
  return acceptedHeaders('mcp', extra).filter((h) => String(req.headers[h] ?? '').trim() !== '').map(displayName)
}

/** How a key is sent to hosted MCP, in words: `X-Service-Key` and any configured key header. */
export function keyHeaderWords(extra: KeyHeaders): string {
  const names = acceptedHeaders('mcp', extra).map(displayName)
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`
}

/** The caller resolved by `hostedAuth` for this request. */
export function hostedCaller(res: Response): HostedCaller {
  return res.locals.mcpCaller as HostedCaller
}

/** The caller of a key on hosted MCP: a key selects its workspace by being pinned to it; an unpinned key is refused (MCP-03). */
export function keyCaller(deps: Deps, value: string): HostedCaller {
  const caller = authenticate(deps, value)
  if (!caller.key.workspace_id) {
    throw new SandboxError('WORKSPACE_SCOPE_REQUIRED', {
      hint: 'Hosted MCP takes a key pinned to one workspace in X-Service-Key, or an OAuth sign-in.',
    })
  }
  return { actor: resolveWorkspace(deps, caller), principal: `key:${caller.key.id}` }
}

async function tokenCaller(options: HostedAuthOptions, authorization: string | null, resource: string, extra: KeyHeaders): Promise<HostedCaller> {
  const keys = keyHeaderWords(extra)
  if (!authorization) throw new InvalidTokenError(`Sign in with OAuth (Authorization: Bearer <access token>), or send a workspace-pinned key in ${keys}.`)
  const match = /^Bearer\s+(\S+)$/i.exec(authorization)
  if (!match) throw new InvalidTokenError(`Expected Authorization: Bearer <OAuth access token>, or a workspace-pinned key in ${keys}.`)
  const info: AuthInfo = await options.verifier.verifyAccessToken(match[1])
  if (info.resource && !sameResource(info.resource.href, resource)) throw new InvalidTokenError('The token was issued for another resource.')
  const grant = info.extra?.grant as Grant | undefined
  if (!grant) throw new InvalidTokenError('The token carries no sandbox grant.')
  return { actor: grantActor(options.deps, grant), principal: `grant:${grant.id}` }
}

/**
 * The actor of an OAuth grant: its user in its workspace with the token's scopes. The grant acts
 * through a key-shaped record (never stored) so the dispatcher, rate limits and audit treat it like
 * a pinned key whose id is the grant id.
 */
function grantActor(deps: Deps, grant: Grant): Actor {
  const user = deps.store.users.get(grant.user_id)
  if (!user) throw new InvalidTokenError('The signed-in user no longer exists; sign in again.')
  const key = {
    id: grant.id, name: `oauth:${grant.client_id}`, hash: '', prefix: grant.id, scopes: grant.scopes,
    user_id: user.id, workspace_id: grant.workspace_id, parent_key_id: null, created_at: iso(grant.created_at),
    expires_at: null, last_used_at: null, revoked_at: null,
  }
  return resolveWorkspace(deps, { key, user })
}

/**
 * The sign-in prompt (MCP-02). The OAuth error code stays in `WWW-Authenticate`; the body says the
 * same sentence in `error`, `message` and `error_description` (issue 35: clients print one of them).
 */
function challenge(res: Response, metadata: string, description: string, keys: string): void {
  const safe = description.replace(/["\\]/g, "'")
  const text = `invalid_token: ${description}${description.includes(keys) ? '' : ` An API key goes in ${keys}, pinned to a workspace.`}`
  res.set('WWW-Authenticate', `Bearer error="invalid_token", error_description="${safe}", resource_metadata="${metadata}"`)
  res.status(401).json({ error: text, message: text, error_description: text, request_id: res.getHeader(REQUEST_ID_HEADER) })
}
