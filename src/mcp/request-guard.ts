import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { SandboxError } from '../domain/errors.js'
import { isLoopbackHostname } from './loopback.js'

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']
const WILDCARD = new Set(['0.0.0.0', '[::]', '::'])

/**
 * The host names hosted MCP answers to (DNS-rebinding protection, MCP transport spec "Security
 * Warning"), read from the bound base URL at request time: bound on loopback (or not bound yet) →
 * the loopback names; bound on one address or name → that name; bound on a wildcard (0.0.0.0, ::)
 * → any name (null), since the machine's names cannot be known; `serve` requires an admin token there.
 */
export function allowedHostnames(baseUrl: string): Set<string> | null {
  const bound = baseUrl ? new URL(baseUrl).hostname.toLowerCase() : 'localhost'
  if (WILDCARD.has(bound)) return null
  return new Set(isLoopbackHostname(bound) ? [...LOOPBACK_NAMES, bound] : [bound])
}

/** The origin a client used to reach us (scheme and `Host`), the "own origin" of a request. */
export function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`
}

/**
 * Refuses a request whose `Host` names no host this sandbox is bound to (403 `HOST_NOT_ALLOWED`),
 * before anything else of hosted MCP or its OAuth server speaks. Port-agnostic, like the SDK's
 * `hostHeaderValidation`.
 */
export function hostGuard(baseUrl: () => string): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const host = req.get('host') ?? ''
    if (hostAllowed(baseUrl(), host)) return next()
    next(new SandboxError('HOST_NOT_ALLOWED', { host: host.slice(0, 200) }))
  }
}

/** Whether a `Host` value names a host this sandbox, bound at `baseUrl`, answers hosted MCP on. */
export function hostAllowed(baseUrl: string, host: string): boolean {
  const name = hostnameOf(host)
  if (name === null) return false
  const allowed = allowedHostnames(baseUrl)
  return allowed === null || allowed.has(name)
}

/**
 * `Origin` on `/mcp` (MCP Streamable HTTP transport: servers MUST validate it). Absent (a
 * non-browser client) is fine; present, it must be this request's own origin or a loopback origin
 * (a local browser client such as the Inspector), else 403 `ORIGIN_NOT_ALLOWED`. An allowed origin
 * is echoed in CORS headers, never `*`.
 */
export function originGuard(req: Request, res: Response, next: NextFunction): void {
  guardOrigin(req, res, next, [])
}

/** `originGuard` whose CORS preflight also allows the configured key headers (`--key-header`). */
export function corsFor(keyHeaders: () => readonly string[]): RequestHandler {
  return (req, res, next) => guardOrigin(req, res, next, keyHeaders())
}

function guardOrigin(req: Request, res: Response, next: NextFunction, keyHeaders: readonly string[]): void {
  const origin = req.get('origin')
  if (origin === undefined) return next()
  if (!originAllowed(origin, ownOrigin(req))) return next(new SandboxError('ORIGIN_NOT_ALLOWED', { origin: origin.slice(0, 200) }))
  res.vary('Origin')
  res.set('Access-Control-Allow-Origin', origin)
  res.set('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate')
  if (req.method !== 'OPTIONS') return next()
  res.set('Access-Control-Allow-Methods', 'POST, DELETE')
  res.set('Access-Control-Allow-Headers', ['Content-Type, Accept, Authorization, X-Service-Key, Mcp-Session-Id, Mcp-Protocol-Version', ...keyHeaders].join(', '))
  res.status(204).end()
}

/** Same origin as the request, or an http(s) origin on a loopback host. `null` and other schemes are refused. */
export function originAllowed(origin: string, own: string): boolean {
  if (origin.toLowerCase() === own.toLowerCase()) return true
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin.toLowerCase() && isLoopbackHostname(url.hostname)
  } catch {
    return false
  }
}

function hostnameOf(host: string): string | null {
  if (!host) return null
  try {
    return new URL(`http://${host}`).hostname.toLowerCase()
  } catch {
    return null
  }
}
