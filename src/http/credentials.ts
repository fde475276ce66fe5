import type { IncomingHttpHeaders } from 'node:http'
import { SandboxError } from '../domain/errors.js'

/** What credential reading needs of a request: express's or a bare `node:http` one. */
export type WithHeaders = { headers: IncomingHttpHeaders }

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
 * The one credential of a request on `surface`, or null. Two different keys in accepted headers is
 * 400 `MULTIPLE_CREDENTIALS`; the same key twice is fine (sandbox decision).
 */
export function readCredential(req: WithHeaders, surface: Surface): string | null {
  const found = new Map<string, string>()
  for (const header of SURFACE_HEADERS[surface]) {
    const value = headerValue(req, header)
    if (value) found.set(header, value)
  }
  const distinct = new Set(found.values())
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
  const text = (Array.isArray(raw) ? raw[0] : raw)?.trim()
  if (!text) return null
  if (header !== 'authorization') return text
  // Only the Bearer scheme carries a key; Basic or an OAuth token format is simply not a key here.
  const match = /^Bearer\s+(\S+)$/i.exec(text)
  return match ? match[1] : null
}

function displayName(header: string): string {
  return header === 'authorization' ? 'Authorization' : header.split('-').map((p) => p[0].toUpperCase() + p.slice(1)).join('-')
}
