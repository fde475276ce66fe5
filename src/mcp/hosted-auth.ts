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

/** Who is calling hosted MCP, resolved for this request; sessions are bound to `principal`. */
export interface HostedCaller {
  actor: Actor
  principal: string
}

export interface HostedAuthOptions {
  deps: Deps
  verifier: OAuthTokenVerifier
  /** This host's MCP resource URL and its protected-resource metadata URL, per request origin. */
  urls(req: Request): { resource: string; metadata: string }
}

/**
 * Authentication of hosted MCP (MCP-01..03). Accepted: a workspace-pinned key in `X-Service-Key`,
 * or an OAuth access token in `Authorization: Bearer`. Anything else in `Authorization` (an API
 * key included) is answered like a missing sign-in: 401 with `WWW-Authenticate: Bearer
 * resource_metadata="…"` and an OAuth error body, never a key error (MCP-02). The workspace comes
 * from the key's pin or the token's grant; no header can change it (MCP-03).
 */
export function hostedAuth(options: HostedAuthOptions): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const urls = options.urls(req)
    try {
      const serviceKey = credentialLine(req, 'x-service-key')
      const authorization = credentialLine(req, 'authorization')
      if (serviceKey && authorization) throw new SandboxError('MULTIPLE_CREDENTIALS', { headers: ['X-Service-Key', 'Authorization'] })
      const caller = serviceKey ? keyCaller(options.deps, serviceKey) : await tokenCaller(options, authorization, urls.resource)
      res.locals.mcpCaller = caller
      next()
    } catch (error) {
      if (error instanceof InvalidTokenError) return challenge(res, urls.metadata, error.message)
      if (error instanceof SandboxError && error.status === 401) {
        return next(new SandboxError(error.code, error.details, { 'WWW-Authenticate': `Bearer resource_metadata="${urls.metadata}"` }))
      }
      next(error)
    }
  }
}

/**
 * The one value of a credential header, read from the raw lines: two lines with different values
 * are 400 MULTIPLE_CREDENTIALS, as on the REST surfaces, because Node would join or drop them and a
 * proxy and the sandbox could disagree about who is calling; the same value twice is one credential.
 */
function credentialLine(req: Request, name: 'authorization' | 'x-service-key'): string | null {
  const values = new Set<string>()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const value = req.rawHeaders[i + 1]?.trim()
    if (value && req.rawHeaders[i].toLowerCase() === name) values.add(value)
  }
  if (values.size > 1) throw new SandboxError('MULTIPLE_CREDENTIALS', { headers: [name === 'authorization' ? 'Authorization' : 'X-Service-Key'] })
  return values.values().next().value ?? null
}

/** The caller resolved by `hostedAuth` for this request. */
export function hostedCaller(res: Response): HostedCaller {
  return res.locals.mcpCaller as HostedCaller
}

// A key selects its workspace by being pinned to it; an unpinned key is refused on hosted MCP.
function keyCaller(deps: Deps, value: string): HostedCaller {
  const caller = authenticate(deps, value)
  if (!caller.key.workspace_id) {
    throw new SandboxError('WORKSPACE_SCOPE_REQUIRED', {
      hint: 'Hosted MCP takes a key pinned to one workspace in X-Service-Key, or an OAuth sign-in.',
    })
  }
  return { actor: resolveWorkspace(deps, caller), principal: `key:${caller.key.id}` }
}

async function tokenCaller(options: HostedAuthOptions, authorization: string | null, resource: string): Promise<HostedCaller> {
  if (!authorization) throw new InvalidTokenError('Sign in with OAuth, or send a workspace-pinned key in X-Service-Key.')
  const match = /^Bearer\s+(\S+)$/i.exec(authorization)
  if (!match) throw new InvalidTokenError('Expected Authorization: Bearer <OAuth access token>.')
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

function challenge(res: Response, metadata: string, description: string): void {
  const safe = description.replace(/["\\]/g, "'")
  res.set('WWW-Authenticate', `Bearer error="invalid_token", error_description="${safe}", resource_metadata="${metadata}"`)
  res.status(401).json({ error: 'invalid_token', error_description: description, request_id: res.getHeader(REQUEST_ID_HEADER) })
}
