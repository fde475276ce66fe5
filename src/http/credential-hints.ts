import type { Caller } from '../domain/access.js'
import { authenticate, hashKey } from '../domain/access.js'
import type { Deps } from '../domain/ports.js'
import type { Surface, WithHeaders } from './credentials.js'
import { SURFACE_HEADERS, readCredential } from './credentials.js'

/**
 * Authenticates the request's one credential on `surface` (AUTH-01..03). When none was read, the
 * 401 says why if the request carried a key the wrong way (issue 18): `Authorization` without the
 * Bearer scheme, or a header this surface does not read. A value is never echoed.
 */
export function authenticateRequest(deps: Deps, req: WithHeaders, surface: Surface): Caller {
  const value = readCredential(req, surface)
  if (!value) return authenticate(deps, value, { missing: missingCredential(req, surface) })
  return authenticate(deps, value, { digest: digestOn(req.socket, value) })
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
export function missingCredential(req: WithHeaders, surface: Surface): string {
  const accepted: readonly string[] = SURFACE_HEADERS[surface]
  const present = (name: string) => {
    const value = req.headers[name]
    return (Array.isArray(value) ? value.join('') : value ?? '').trim() !== ''
  }
  const use = accepted.map(display).join(' or ')
  if (accepted.includes('authorization') && present('authorization')) {
    return `the Authorization header carries no Bearer key; send \`Authorization: Bearer <key>\``
  }
  const ignored = SURFACE_HEADERS.tools.filter((name) => !accepted.includes(name) && present(name))
  if (ignored.length > 0) return `${ignored.map(display).join(' and ')} is not read on this endpoint; send ${use}`
  return 'no API key was sent'
}

function display(header: string): string {
  if (header === 'authorization') return '`Authorization: Bearer <key>`'
  return `\`${header.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`).replace('Api', 'API')}: <key>\``
}
