import type { IncomingHttpHeaders } from 'node:http'
import { SandboxError } from '../domain/errors.js'

/**
 * What credential reading needs of a request: express's or a bare `node:http` one. `rawHeaders`
 * keeps every header line (Node keeps only the first `Authorization` and joins the others);
 * `socket` is the connection it came on.
 */
export type WithHeaders = { headers: IncomingHttpHeaders; rawHeaders?: string[]; socket?: object | null }

/**
 * Which credential headers each surface accepts (AUTH-01, AUTH-02). A header a surface does not
 * accept is ignored, so on a resource endpoint `X-API-Key` alone counts as no credential (401).
 */
export const SURFACE_HEADERS = {
  tools: ['authorization', 'x-service-key', 'x-api-key'],
  resource: ['authorization', 'x-service-key'],
  artifact: ['x-service-key'],
  /** Hosted MCP's key header; `Authorization` there carries an OAuth token (`src/mcp/hosted-auth.ts`). */
  mcp: ['x-service-key'],
} as const

export type Surface = keyof typeof SURFACE_HEADERS

// The lengths of every credential header name: most header lines are skipped without lower-casing.
const NAME_LENGTHS = new Set<number>(SURFACE_HEADERS.tools.map((h) => h.length))

/**
 * Header names an operator added with `--key-header` (issue 35): lower-cased, each read exactly like
 * `X-Service-Key` on every surface and on hosted MCP. Empty by default.
 */
export type KeyHeaders = readonly string[]

export const NO_KEY_HEADERS: KeyHeaders = Object.freeze([])

/** The headers `surface` reads a key from: its own, then the configured key headers. */
export function acceptedHeaders(surface: Surface, extra: KeyHeaders = NO_KEY_HEADERS): readonly string[] {
  return extra.length === 0 ? SURFACE_HEADERS[surface] : [...SURFACE_HEADERS[surface], ...extra]
}

/**
 * The one credential of a request on `surface`, or null (AUTH-01, AUTH-02). Two different keys in
 * accepted headers, or in two lines of the same header, is 400 `MULTIPLE_CREDENTIALS`; the same key
 * twice is fine (RULES.md Authentication, sandbox decision). `extra`: configured key headers.
 */
export function readCredential(req: WithHeaders, surface: Surface, extra: KeyHeaders = NO_KEY_HEADERS): string | null {
  const accepted = acceptedHeaders(surface, extra)
  const lines = req.rawHeaders ?? keptLines(req)
  let credential: string | null = null
  let different = false
  const seen = new Set<string>()
  // One pass over the raw lines; a name is lower-cased only when its length could match.
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]
    if (!NAME_LENGTHS.has(name.length) && (extra.length === 0 || !extra.some((h) => h.length === name.length))) continue
    const header = name.toLowerCase()
    if (!accepted.includes(header)) continue
    const value = credentialIn(header, lines[i + 1])
    if (!value) continue
    seen.add(header)
    if (credential === null) credential = value
    else if (value !== credential) different = true
  }
  if (different) {
    throw new SandboxError('MULTIPLE_CREDENTIALS', { headers: accepted.filter((h) => seen.has(h)).map(displayName) })
  }
  return credential
}

/** The credential-looking value of a header, used by the journal for a prefix only. */
export function anyCredential(req: WithHeaders, extra: KeyHeaders = NO_KEY_HEADERS): string | null {
  for (const header of SURFACE_HEADERS.tools) {
    const value = headerValue(req, header)
    if (value) return value
  }
  for (const header of extra) {
    const value = headerValue(req, header)
    if (value) return value
  }
  return null
}

function headerValue(req: WithHeaders, header: string): string | null {
  const raw = req.headers[header]
  return credentialIn(header, Array.isArray(raw) ? raw[0] : raw)
}

// Without raw headers (a test double), the lines Node kept, in raw-header form.
function keptLines(req: WithHeaders): string[] {
  return Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, value]))
}

function credentialIn(header: string, line: string | undefined): string | null {
  const text = line?.trim()
  if (!text) return null
  if (header !== 'authorization') return text
  // Only the Bearer scheme carries a key; Basic or an OAuth token format is simply not a key here.
  const match = /^Bearer\s+(\S+)$/i.exec(text)
  return match ? match[1] : null
}

/** `x-service-key` → `X-Service-Key`, as the header is usually written. */
export function displayName(header: string): string {
  if (header === 'authorization') return 'Authorization'
  return header.split('-').map((p) => (p ? p[0].toUpperCase() + p.slice(1) : p)).join('-')
}

// Headers HTTP, the browser or the sandbox already give another meaning: never a key header.
const RESERVED = new Set([
  'authorization', 'x-service-key', 'cookie', 'set-cookie', 'host', 'content-type', 'content-length', 'accept', 'accept-encoding',
  'connection', 'transfer-encoding', 'origin', 'referer', 'user-agent', 'x-sandbox-admin', 'mcp-session-id', 'mcp-protocol-version',
  'x-request-id', 'request-id', 'prefer', 'idempotency-key', 'last-event-id', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto',
])

/**
 * Checks and lower-cases configured key header names (`--key-header`, a world's `key_headers`):
 * an HTTP token of letters, digits and dashes, not a header with another meaning; duplicates are
 * dropped. Throws a `RangeError` naming the bad name.
 */
export function keyHeadersOf(names: readonly string[]): KeyHeaders {
  const out: string[] = []
  for (const raw of names) {
    const name = raw.trim().toLowerCase()
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(name)) throw new RangeError(`key header "${raw.slice(0, 80)}" is not a header name (letters, digits and dashes, at most 63)`)
    if (RESERVED.has(name)) throw new RangeError(`key header "${raw}" already means something else; pick another name (e.g. X-My-Key)`)
    if (!out.includes(name)) out.push(name)
  }
  return Object.freeze(out)
}
