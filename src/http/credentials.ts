import type { IncomingHttpHeaders } from 'node:http'
import { SandboxError } from '../domain/errors.js'

/**
 * What credential reading needs of a request: express's or a bare `node:http` one. `rawHeaders`
 * keeps every header line (Node keeps only the first `Authorization` and joins the others).
 */
export type WithHeaders = { headers: IncomingHttpHeaders; rawHeaders?: string[] }

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

/**
 * The one credential of a request on `surface`, or null (AUTH-01, AUTH-02). Two different keys in
 * accepted headers, or in two lines of the same header, is 400 `MULTIPLE_CREDENTIALS`; the same key
 * twice is fine (RULES.md Authentication, sandbox decision).
 */
export function readCredential(req: WithHeaders, surface: Surface): string | null {
  const found = new Map<string, Set<string>>()
  for (const header of SURFACE_HEADERS[surface]) {
    for (const line of headerLines(req, header)) {
      const value = credentialIn(header, line)
      if (value) found.set(header, (found.get(header) ?? new Set()).add(value))
    }
  }
  const distinct = new Set([...found.values()].flatMap((values) => [...values]))
  if (distinct.size > 1) {
    throw new SandboxError('MULTIPLE_CREDENTIALS', { headers: [...found.keys()].map(displayName) })
  }
  return distinct.values().next().value ?? null
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

// Every line of `header` as sent; without raw headers, what Node kept.
function headerLines(req: WithHeaders, header: string): string[] {
  const raw = req.rawHeaders
  if (!raw) {
    const value = req.headers[header]
    return value === undefined ? [] : Array.isArray(value) ? value : [value]
  }
  const lines: string[] = []
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === header.length && raw[i].toLowerCase() === header) lines.push(raw[i + 1])
  return lines
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
