import type { Caller } from '../domain/access.js'
import { SandboxError } from '../domain/errors.js'
import { authenticate, hashKey } from '../domain/access.js'
import type { Deps } from '../domain/ports.js'
import type { KeyHeaders, Surface, WithHeaders } from './credentials.js'
import { NO_KEY_HEADERS, SURFACE_HEADERS, acceptedHeaders, displayName, readCredential } from './credentials.js'

/**
 * Authenticates the request's one credential on `surface` (AUTH-01..03). When none was read, the
 * 401 says why if the request carried a key the wrong way (issue 18): `Authorization` without the
 * Bearer scheme, or a header this surface does not read. A value is never echoed.
 */
export function authenticateRequest(deps: Deps, req: WithHeaders, surface: Surface, extra: KeyHeaders = NO_KEY_HEADERS): Caller {
  try {
    const value = readCredential(req, surface, extra)
    if (!value) return authenticate(deps, value, { missing: missingCredential(req, surface, extra) })
    return authenticate(deps, value, { digest: digestOn(req.socket, value) })
  } catch (error) {
    throw naming(error, acceptedHeaders(surface, extra))
  }
}

/**
 * A 401 that names the headers a key is read from, in `error`, `message` and `error_description`
 * alike (issue 35): clients print one of the three, and the real service's client reads `message`,
 * `error` and `detail`, never `error_description`. Other errors pass through unchanged.
 */
export function naming(error: unknown, accepted: readonly string[]): unknown {
  if (!(error instanceof SandboxError) || error.code !== 'AUTHENTICATION_REQUIRED') return error
  const said = String(error.details.detail ?? 'no API key was sent')
  // A detail that already says what to send (a header sent the wrong way) names every accepted header itself.
  const detail = said.includes('; send ') ? said : `${said}; send the key in ${listOf(accepted.map(display))}`
  const message = new SandboxError(error.code, { ...error.details, detail }).message
  return new SandboxError(error.code, {
    ...error.details, detail, accepted_headers: accepted.map((h) => displayName(h).replace('-Api-', '-API-')), message, error_description: message,
  }, error.headers)
}

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`
}

/**
 * The last credential each connection sent, with its SHA-256: a keep-alive client sends the same
 * key on every request, and hashing it each time was ≈ 2 % of the agent session's CPU
 * (bench/README.md). Kept in memory only, as long as the connection lives; the value is compared
 * whole before its digest is reused, so another key on the same connection is hashed afresh.
 */
const lastOnConnection = new WeakMap<object, { value: string; digest: string }>()

function digestOn(connection: object | null | undefined, value: string): string {
  const kept = connection ? lastOnConnection.get(connection) : undefined
  if (kept?.value === value) return kept.digest
  const digest = hashKey(value)
  if (connection) lastOnConnection.set(connection, { value, digest })
  return digest
}

/** Why no credential was read from `req` on `surface`, in words that say what to send instead. */
export function missingCredential(req: WithHeaders, surface: Surface, extra: KeyHeaders = NO_KEY_HEADERS): string {
  const accepted = acceptedHeaders(surface, extra)
  const present = (name: string) => {
    const value = req.headers[name]
    return (Array.isArray(value) ? value.join('') : value ?? '').trim() !== ''
  }
  const use = listOf(accepted.map(display))
  if (accepted.includes('authorization') && present('authorization')) {
    return `the Authorization header carries no Bearer key; send ${use}`
  }
  const ignored = SURFACE_HEADERS.tools.filter((name) => !accepted.includes(name) && present(name))
  if (ignored.length > 0) return `${ignored.map(display).join(' and ')} is not read on this endpoint; send ${use}`
  return 'no API key was sent'
}

function display(header: string): string {
  if (header === 'authorization') return '`Authorization: Bearer <key>`'
  return `\`${displayName(header).replace('-Api-', '-API-')}: <key>\``
}
