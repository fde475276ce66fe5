import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js'
import { InvalidClientMetadataError, OAuthError, TooManyRequestsError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { isLoopbackHostname } from './loopback.js'

const HOUR = 3_600_000
/**
 * Bounds of dynamic client registration (RFC 7591; sandbox decision, docs/security.md): memory
 * stays bounded whatever strangers register. Times are sandbox epoch ms.
 */
export const REGISTRATION_LIMITS = {
  clients: 1_000,
  redirectUris: 10,
  uriChars: 2_048,
  textChars: 256,
  listEntries: 10,
  metadataBytes: 8_192,
  /** A client with no live code or token and unused this long is forgotten. */
  unusedMs: 24 * HOUR,
  /** A full table evicts only a never-used client older than this (no sign-in can still be pending). */
  evictAfterMs: 10 * 60_000,
} as const

const TEXT_FIELDS = ['client_name', 'scope', 'software_id', 'software_version', 'token_endpoint_auth_method'] as const
const URI_FIELDS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'jwks_uri', 'software_statement'] as const
const LIST_FIELDS = ['grant_types', 'response_types', 'contacts'] as const

/** RFC 7591 §3.2.2 `invalid_redirect_uri` (the SDK has no class for it). */
export class InvalidRedirectUriError extends OAuthError {
  static override errorCode = 'invalid_redirect_uri'
}

interface ClientRow {
  info: OAuthClientInformationFull
  registered_at: number
  last_used_at: number | null
}

/**
 * Why a redirect URI is refused, or null when it is fine (OAuth 2.1 §2.3.1, RFC 9700 §2.1,
 * RFC 8252 §7.3): https anywhere, http only on a loopback host, never a fragment, never another
 * scheme (file:, blob:, about:, mailto:, ftp:, ws:, custom schemes).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.includes('#')) return 'must not contain a fragment'
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'is not an absolute URL'
  }
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:') return isLoopbackHostname(url.hostname) ? null : 'may use http only on a loopback host (127.0.0.1, [::1], localhost); use https'
  return `uses ${url.protocol} - only https (or http on loopback) is allowed`
}

/** Refuses metadata over the field, list or size bounds, or with a redirect URI `redirectUriProblem` refuses. */
export function checkClientMetadata(info: OAuthClientInformationFull): void {
  const limits = REGISTRATION_LIMITS
  if (info.redirect_uris.length === 0) throw new InvalidRedirectUriError('Register at least one redirect URI.')
  if (info.redirect_uris.length > limits.redirectUris) throw new InvalidRedirectUriError(`At most ${limits.redirectUris} redirect URIs per client.`)
  for (const uri of info.redirect_uris) {
    if (uri.length > limits.uriChars) throw new InvalidRedirectUriError(`A redirect URI may have at most ${limits.uriChars} characters.`)
    const problem = redirectUriProblem(uri)
    if (problem) throw new InvalidRedirectUriError(`Redirect URI ${uri.slice(0, 100)} ${problem}.`)
  }
  const record = info as unknown as Record<string, unknown>
  for (const field of TEXT_FIELDS) tooLong(field, record[field], limits.textChars)
  for (const field of URI_FIELDS) tooLong(field, record[field], limits.uriChars)
  for (const field of LIST_FIELDS) {
    const list = record[field]
    if (Array.isArray(list) && list.length > limits.listEntries) throw new InvalidClientMetadataError(`${field} may have at most ${limits.listEntries} entries.`)
    if (Array.isArray(list)) list.forEach((entry) => tooLong(field, entry, limits.textChars))
  }
  if (Buffer.byteLength(JSON.stringify(info)) > limits.metadataBytes) throw new InvalidClientMetadataError(`Client metadata may have at most ${limits.metadataBytes} bytes.`)
}

function tooLong(field: string, value: unknown, max: number): void {
  if (typeof value === 'string' && value.length > max) throw new InvalidClientMetadataError(`${field} may have at most ${max} characters.`)
}

/**
 * Registered OAuth clients, bounded in count, size and unused lifetime (`REGISTRATION_LIMITS`).
 * `inUse` says whether a client still has a pending sign-in, code or token; such a client is never
 * pruned or evicted, so a flood of registrations cannot push out anyone's working sign-in.
 */
export class ClientRegistry {
  readonly #rows = new Map<string, ClientRow>()

  get size(): number {
    return this.#rows.size
  }

  get(clientId: string): OAuthClientInformationFull | undefined {
    return this.#rows.get(clientId)?.info
  }

  /** Records that a client started or finished a sign-in or used a token now. */
  touch(clientId: string, now: number): void {
    const row = this.#rows.get(clientId)
    if (row) row.last_used_at = now
  }

  register(info: OAuthClientInformationFull, now: number, inUse: (clientId: string) => boolean): OAuthClientInformationFull {
    checkClientMetadata(info)
    this.prune(now, inUse)
    if (this.#rows.size >= REGISTRATION_LIMITS.clients && !this.#evictOne(now, inUse)) {
      throw new TooManyRequestsError(`The sandbox holds ${REGISTRATION_LIMITS.clients} registered clients; unused ones are forgotten after 24 h of sandbox time.`)
    }
    this.#rows.set(info.client_id, { info, registered_at: now, last_used_at: null })
    return info
  }

  /** Forgets clients unused for `unusedMs` that hold nothing live. */
  prune(now: number, inUse: (clientId: string) => boolean): void {
    for (const [id, row] of this.#rows) {
      if ((row.last_used_at ?? row.registered_at) + REGISTRATION_LIMITS.unusedMs <= now && !inUse(id)) this.#rows.delete(id)
    }
  }

  // The oldest never-used client past the sign-in window; none → the table is full.
  #evictOne(now: number, inUse: (clientId: string) => boolean): boolean {
    for (const [id, row] of this.#rows) {
      if (row.last_used_at === null && row.registered_at + REGISTRATION_LIMITS.evictAfterMs <= now && !inUse(id)) {
        this.#rows.delete(id)
        return true
      }
    }
    return false
  }
}
