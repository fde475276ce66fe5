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
} as const

export type Surface = keyof typeof SURFACE_HEADERS

// The lengths of every credential header name: most header lines are skipped without lower-casing.
const NAME_LENGTHS = new Set<number>(SURFACE_HEADERS.tools.map((h) => h.length))

/**
 * The one credential of a request on `surface`, or null (AUTH-01, AUTH-02). Two different keys in
 * accepted headers, or in two lines of the same header, is 400 `MULTIPLE_CREDENTIALS`; the same key
 * twice is fine (RULES.md Authentication, sandbox decision).
 */
export function readCredential(req: WithHeaders, surface: Surface): string | null {
  const accepted: readonly string[] = SURFACE_HEADERS[surface]
  const lines = req.rawHeaders ?? keptLines(req)
  let credential: string | null = null
  let different = false
  const seen = new Set<string>()
  // One pass over the raw lines; a name is lower-cased only when its length could match.
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]
    if (!NAME_LENGTHS.has(name.length)) continue
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
export function anyCredential(req: WithHeaders): string | null {
  for (const header of SURFACE_HEADERS.tools) {
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

function displayName(header: string): string {
  return header === 'authorization' ? 'Authorization' : header.split('-').map((p) => p[0].toUpperCase() + p.slice(1)).join('-')
}
