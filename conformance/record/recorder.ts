import { Agent as HttpAgent, createServer, request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { listen } from '../listen-local.js'

/** One exchange the recorder forwarded, as the client sent it and the target answered. */
export interface Recorded {
  host: 'base' | 'api'
  method: string
  path: string
  /** The query string, `?…` or empty. */
  search: string
  headers: Record<string, string>
  body: string
  status: number
  responseHeaders: Record<string, string>
  responseBody: string
}

export interface RecorderOptions {
  targetBase: string
  targetApi: string
  host?: string
  /** Base host port; 0 (default) picks a free one. */
  port?: number
  apiPort?: number
  /** Called after each exchange is forwarded (progress). */
  onExchange?: (exchange: Recorded, count: number) => void
  /** Exchanges kept at most (memory stays bounded); later ones are forwarded, not kept. Default 50 000. */
  maxExchanges?: number
  /** Called once, on the first request past `maxExchanges`. */
  onFull?: (kept: number) => void
  /** Called when the target did not answer a request (the client got a 502 `TARGET_UNREACHABLE`). */
  onUnreachable?: (request: { method: string; path: string }, error: Error) => void
}

export interface Recorder {
  baseUrl: string
  apiUrl: string
  /** Every exchange so far, in the order the client's requests arrived. */
  readonly exchanges: readonly Recorded[]
  /** Requests forwarded past `maxExchanges`, not kept. */
  readonly dropped: number
  close(): Promise<void>
}

/** Exchanges a recording keeps by default (≈ 6 KB each for a campaign list: a few hundred MB at most). */
export const MAX_EXCHANGES = 50_000

// Hop-by-hop and framing headers: recomputed by each side of the proxy.
const REQUEST_DROPPED = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding'])
const RESPONSE_DROPPED = new Set(['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive'])

/**
 * `adops-sandbox record`: a proxy for each host of a target (the base host also carries `/mcp`)
 * that forwards every request as it is and keeps the exchange (issue 38). Nothing is written here:
 * secrets are kept in memory only until the files are made with placeholders (`placeholders.ts`).
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const exchanges: Recorded[] = []
  let count = 0
  const max = options.maxExchanges ?? MAX_EXCHANGES
  const record = (exchange: Recorded, at: number) => {
    // Kept in the order requests arrived, whatever order the answers come back in.
    exchanges[at] = exchange
    options.onExchange?.(exchange, ++count)
  }
  let next = 0
  let dropped = 0
  const serve = (host: 'base' | 'api', target: string) => createServer((req: IncomingMessage, res: ServerResponse) => {
    // Past the limit a request is still forwarded (the client's session goes on) but not kept.
    const at = next < max ? next++ : -1
    if (at < 0 && dropped++ === 0) options.onFull?.(max)
    readBody(req, res, (body) => void forward({ host, target, req, res, body, at }))
  })
  async function forward(x: { host: 'base' | 'api'; target: string; req: IncomingMessage; res: ServerResponse; body: string; at: number }): Promise<void> {
    const url = new URL(x.req.url ?? '/', 'http://recorder')
    const answer = await forwardRequest(x.target, x.req, x.body)
    if (answer instanceof Error) {
      options.onUnreachable?.({ method: x.req.method ?? 'GET', path: url.pathname }, answer)
      x.res.writeHead(502, { 'content-type': 'application/json' }).end(unreachableBody(answer))
      return
    }
    const { live, ...exchange } = answer
    x.res.writeHead(answer.status, live).end(answer.responseBody)
    if (x.at >= 0) record({ host: x.host, path: url.pathname, search: url.search, ...exchange }, x.at)
  }
  const host = options.host ?? '127.0.0.1'
  const base = await listen(serve('base', options.targetBase.replace(/\/$/, '')), host, options.port ?? 0)
  const api = await listen(serve('api', options.targetApi.replace(/\/$/, '')), host, options.apiPort ?? 0).catch(async (error) => {
    await base.close()
    throw error
  })
  return {
    baseUrl: base.url,
    apiUrl: api.url,
    get exchanges() {
      return exchanges.filter(Boolean)
    },
    get dropped() {
      return dropped
    },
    close: async () => {
      await Promise.all([base.close(), api.close()])
    },
  }
}

// Kept-alive connections to the target: a new one per request would cost more than the whole budget (≤ 2 ms p50).
const AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

/**
 * An exchange forwarded as it came (hop-by-hop headers dropped), or the error when the target did
 * not answer. `live`: the answer's headers as the client gets them (a repeated header stays repeated).
 */
export function forwardRequest(target: string, req: IncomingMessage, body: string): Promise<(Omit<Recorded, 'host' | 'path' | 'search'> & { live: IncomingHttpHeaders }) | Error> {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !REQUEST_DROPPED.has(k)).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]))
  const method = req.method ?? 'GET'
  const url = new URL(`${target}${req.url ?? '/'}`)
  const sent = method === 'GET' || method === 'HEAD' || body === '' ? null : body
  const tls = url.protocol === 'https:'
  return new Promise((resolve) => {
    const out = (tls ? httpsRequest : httpRequest)(url, { method, headers: sent === null ? headers : { ...headers, 'content-length': String(Buffer.byteLength(sent)) }, agent: tls ? AGENTS.https : AGENTS.http }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (c: Buffer) => chunks.push(c))
      answer.on('error', resolve)
      answer.on('end', () => {
        let text: string
        try {
          text = decoded(Buffer.concat(chunks), answer.headers['content-encoding']).toString('utf8')
        } catch (error) {
          // A body that does not decompress is the target's fault: a 502, never a crash of the proxy.
          resolve(new Error(`the answer is not valid ${answer.headers['content-encoding']}: ${(error as Error).message}`))
          return
        }
        const live = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !RESPONSE_DROPPED.has(k)))
        const responseHeaders = Object.fromEntries(Object.entries(live).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]))
        resolve({ method, headers, body, status: answer.statusCode ?? 502, responseHeaders, responseBody: text, live })
      })
    })
    out.on('error', resolve)
    out.end(sent ?? undefined)
  })
}

/** A body as sent, compression undone (the client gets it plain; `content-encoding` is dropped). */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body)
  if (encoding === 'br') return brotliDecompressSync(body)
  if (encoding === 'deflate') return inflateSync(body)
  return body
}

/** Request bytes a proxy buffers at most: far above any body the service accepts (1 MiB), so only abuse is refused. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024

/** A request's body as text, or a 413 JSON answer when it is larger than `MAX_BODY_BYTES` (memory stays bounded). */
export function readBody(req: IncomingMessage, res: ServerResponse, then: (body: string) => void): void {
  const chunks: Buffer[] = []
  let size = 0
  req.on('data', (c: Buffer) => {
    size += c.length
    if (size <= MAX_BODY_BYTES) chunks.push(c)
  })
  req.on('end', () => {
    if (size <= MAX_BODY_BYTES) return then(Buffer.concat(chunks).toString('utf8'))
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' })
      .end(JSON.stringify({ error: `record: the request body exceeds ${MAX_BODY_BYTES} bytes; not forwarded`, code: 'PAYLOAD_TOO_LARGE' }))
  })
}

/** The 502 JSON a proxy answers when the target did not answer (never a hang). */
export function unreachableBody(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return JSON.stringify({ error: `record: the target did not answer: ${error.message}${cause}`, code: 'TARGET_UNREACHABLE' })
}

