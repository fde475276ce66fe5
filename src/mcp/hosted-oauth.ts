import express from 'express'
import type { IRouter, NextFunction, Request, RequestHandler, Response } from 'express'
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js'
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { ALL_SCOPES } from '../domain/scopes.js'
import { invalidRequest } from '../domain/errors.js'
import type { SandboxOAuthProvider } from './oauth-provider.js'
import { MCP_PATH, OAUTH_PATHS, SIGN_IN_PATH } from './hosted-paths.js'

const MAX_ORIGINS = 16

/** The origin a client used to reach us; metadata must name it, or clients reject the resource. */
function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`
}

/** The MCP resource URL and its protected-resource metadata URL, as this request sees them. */
export function resourceUrls(req: Request): { resource: string; metadata: string } {
  const resource = `${requestOrigin(req)}${MCP_PATH}`
  return { resource, metadata: getOAuthProtectedResourceMetadataUrl(new URL(resource)) }
}

/**
 * Mounts the SDK's `mcpAuthRouter` over our provider (MCP-01): metadata, registration, authorize,
 * token, revoke. The issuer is the origin the client used, so the router is built per origin
 * (a few at most). The SDK refuses an http issuer off loopback; there OAuth answers 404 and only
 * `X-Service-Key` works. Rate limiting is off: the sandbox's limits are for the API.
 */
export function mountOAuth(app: IRouter, provider: SandboxOAuthProvider): void {
  const routers = new Map<string, RequestHandler | null>()
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!OAUTH_PATHS.has(req.path)) return next()
    const origin = requestOrigin(req)
    if (!routers.has(origin)) {
      if (routers.size >= MAX_ORIGINS) routers.delete(routers.keys().next().value as string)
      routers.set(origin, buildRouter(provider, origin))
    }
    const router = routers.get(origin)
    if (!router) return next()
    router(req, res, next)
  })
  app.post(SIGN_IN_PATH, express.urlencoded({ extended: false, limit: '16kb' }), signInHandler(provider))
}

function buildRouter(provider: SandboxOAuthProvider, origin: string): RequestHandler | null {
  try {
    return mcpAuthRouter({
      provider,
      issuerUrl: new URL(origin),
      resourceServerUrl: new URL(`${origin}${MCP_PATH}`),
      scopesSupported: [...ALL_SCOPES],
      resourceName: 'adops-sandbox hosted MCP',
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
      // Secrets never expire by wall time: sandbox time is the only clock here.
      clientRegistrationOptions: { rateLimit: false, clientSecretExpirySeconds: 0 },
    })
  } catch {
    return null
  }
}

/**
 * `POST /oauth/sign-in` from the sign-in page: `request`, `account` = `<user_id> <workspace_id>`,
 * `decision` = allow | deny. Redirects back to the client with a code (or `access_denied`).
 */
function signInHandler(provider: SandboxOAuthProvider): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>
      const request = typeof body.request === 'string' ? body.request : ''
      if (!request) throw invalidRequest('The sign-in form must carry `request`.', 'request')
      if (body.decision === 'deny') return void res.status(302).set('Location', provider.completeSignIn(request, 'deny')).end()
      const [user_id, workspace_id] = typeof body.account === 'string' ? body.account.trim().split(/\s+/) : []
      if (!user_id || !workspace_id) throw invalidRequest('Pick an account: `account` is "<user_id> <workspace_id>".', 'account')
      res.status(302).set('Location', provider.completeSignIn(request, { user_id, workspace_id })).end()
    } catch (error) {
      next(error instanceof OAuthError ? invalidRequest(error.message) : error)
    }
  }
}
