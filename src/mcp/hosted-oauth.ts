import express from 'express'
import type { IRouter, NextFunction, Request, RequestHandler, Response } from 'express'
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js'
import { ALL_SCOPES } from '../domain/scopes.js'
import type { SandboxOAuthProvider } from './oauth-provider.js'
import { MCP_PATH, OAUTH_PATHS, SIGN_IN_PATH } from './hosted-paths.js'
import { isLoopbackAddress } from './loopback.js'
import { ownOrigin } from './request-guard.js'
import { signInHandler } from './sign-in-handler.js'

const MAX_ORIGINS = 16
/** Bodies of the OAuth endpoints are small forms or JSON; registration metadata is capped lower still. */
const OAUTH_BODY_LIMIT = '16kb'
const parseForm = express.urlencoded({ extended: false, limit: OAUTH_BODY_LIMIT })
const parseJson = express.json({ limit: OAUTH_BODY_LIMIT })

/** The MCP resource URL and its protected-resource metadata URL, as this request sees them. */
export function resourceUrls(req: Request): { resource: string; metadata: string } {
  const resource = `${ownOrigin(req)}${MCP_PATH}`
  return { resource, metadata: getOAuthProtectedResourceMetadataUrl(new URL(resource)) }
}

/**
 * Mounts the SDK's `mcpAuthRouter` over our provider (MCP-01): metadata, registration, authorize,
 * token, revoke, and the sign-in form's endpoint. The issuer is the origin the client used, so the
 * router is built per origin (a few at most). Plain http is served only on a loopback connection
 * (the socket's addresses, not `Host`, which anyone can set); elsewhere OAuth answers 404 and only
 * `X-Service-Key` works, like the SDK's refusal of an http issuer off loopback. Bodies are parsed
 * here with a small limit (the SDK's parsers then skip), and `/authorize` refuses a fragment in
 * `redirect_uri`. Rate limiting is off: the sandbox's limits are for the API.
 */
export function mountOAuth(app: IRouter, provider: SandboxOAuthProvider): void {
  const routers = new Map<string, RequestHandler | null>()
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!OAUTH_PATHS.has(req.path) || !servesOAuth(req)) return next()
    const origin = ownOrigin(req)
    if (!routers.has(origin)) {
      if (routers.size >= MAX_ORIGINS) routers.delete(routers.keys().next().value as string)
      routers.set(origin, buildRouter(provider, origin))
    }
    const router = routers.get(origin)
    if (!router) return next()
    preParse(req, res, (error?: unknown) => {
      if (error) return next(error)
      if (req.path === '/authorize' && hasFragment(req)) return void oauthError(res, 'invalid_request', 'redirect_uri must not contain a fragment.')
      router(req, res, next)
    })
  })
  app.post(SIGN_IN_PATH, (req, res, next) => (servesOAuth(req) ? next() : next('route')), parseForm, signInHandler(provider))
}

/** OAuth over plain http only between loopback addresses; https (behind a proxy) anywhere. */
function servesOAuth(req: Request): boolean {
  if (req.protocol === 'https') return true
  return isLoopbackAddress(req.socket.localAddress) && isLoopbackAddress(req.socket.remoteAddress)
}

function preParse(req: Request, res: Response, done: (error?: unknown) => void): void {
  if (req.method !== 'POST') return done()
  const parser = req.path === '/register' ? parseJson : parseForm
  parser(req, res, done)
}

function hasFragment(req: Request): boolean {
  const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined
  const uri = source?.redirect_uri
  return typeof uri === 'string' && uri.includes('#')
}

function oauthError(res: Response, error: string, description: string): void {
  res.status(400).set('Cache-Control', 'no-store').json({ error, error_description: description })
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
