import { request, type RequestListener } from 'node:http'
import type { SandboxOptions, Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { sequentialIds } from '../runtime/ids.js'

/** A sandbox and the server answering with one of its listeners. */
export interface Twin {
  sb: Sandbox
  server: Listening
}

/**
 * One of two identical sandboxes (same ids, the world seeded at the same instant), served by the
 * listener `pick` chooses: the fast path in front of express, or express alone. The same calls to
 * both must leave the same answers, journal and state.
 */
export async function twin(pick: (sb: Sandbox) => RequestListener, options: SandboxOptions = {}): Promise<Twin> {
  const sb = await buildSandbox({ ids: sequentialIds(), wall: () => Date.parse('2030-02-03T04:05:06.000Z'), ...options })
  return { sb, server: await listen(pick(sb), '127.0.0.1', 0) }
}

/** Closes twins' servers, then their sandboxes. */
export async function closeTwins(twins: Twin[]): Promise<void> {
  await Promise.all(twins.map((t) => t.server.close()))
  await Promise.all(twins.map((t) => t.sb.close()))
}

/** One raw HTTP/1.1 request, so method, content type, length and transfer encoding are exactly as given. */
export interface RawRequest {
  method?: string
  path: string
  key?: string
  /** Sent with a JSON content type (unless `headers` says otherwise) and its length. */
  body?: string
  headers?: Record<string, string>
  /** Sends the body chunked (no length). */
  chunked?: boolean
}

export interface RawAnswer {
  status: number
  text: string
  headers: Record<string, unknown>
}

/** Sends `sent` to `url`; one client request id, so error bodies (`request_id`) match byte for byte. */
export function sendRaw(url: string, sent: RawRequest): Promise<RawAnswer> {
  const body = sent.body === undefined ? undefined : Buffer.from(sent.body)
  const headers: Record<string, string | number> = { 'request-id': 'twin-request', ...(body ? { 'content-type': 'application/json' } : {}), ...sent.headers }
  if (sent.key) headers.authorization = `Bearer ${sent.key}`
  if (body && !sent.chunked) headers['content-length'] = body.length
  return new Promise((resolve, reject) => {
    const req = request(`${url}${sent.path}`, { method: sent.method ?? (body ? 'POST' : 'GET'), headers }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8'))).on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }))
    })
    req.on('error', reject)
    // A write before `end` makes node send the body chunked when no length is set.
    if (body && sent.chunked) req.write(body)
    req.end(sent.chunked ? undefined : body)
  })
}

/** The journal's entries minus what differs between any two exchanges (times, ids, the Host header). */
export function journalOf(sb: Sandbox): unknown[] {
  return sb.ctx.journal.query({ limit: 1000 }).entries.map(({ at: _at, duration_ms: _ms, request_id: _id, request, ...rest }) => {
    const { host: _host, ...headers } = request.headers
    return { ...rest, request: { ...request, headers } }
  })
}

/** Headers a fast path must set exactly as express does. */
export const COMPARED_HEADERS = ['content-type', 'content-length', 'retry-after', 'etag', 'x-powered-by', 'allow', 'request-id'] as const

/**
 * A stand-in for express behind a fast path: it reads the body as express would and answers 599
 * with it, so a test sees what was handed on and that the body arrived intact.
 */
export const FELL_BACK = 599
export const standIn: RequestListener = (req, res) => {
  let text = ''
  req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8'))).on('end', () => {
    res.statusCode = FELL_BACK
    res.end(text)
  })
}
