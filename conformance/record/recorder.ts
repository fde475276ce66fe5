import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

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
  /** Called when the target did not answer a request (the client got a 502 `TARGET_UNREACHABLE`). */
  onUnreachable?: (request: { method: string; path: string }, error: Error) => void
}

export interface Recorder {
  baseUrl: string
  apiUrl: string
  /** Every exchange so far, in the order the client's requests arrived. */
  readonly exchanges: readonly Recorded[]
  close(): Promise<void>
}

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
  const record = (exchange: Recorded, at: number) => {
    // Kept in the order requests arrived, whatever order the answers come back in.
    exchanges[at] = exchange
    options.onExchange?.(exchange, exchanges.filter(Boolean).length)
  }
  let next = 0
  const serve = (host: 'base' | 'api', target: string) => createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = next++
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => void forward({ host, target, req, res, body: Buffer.concat(chunks).toString('utf8'), at }))
  })
  async function forward(x: { host: 'base' | 'api'; target: string; req: IncomingMessage; res: ServerResponse; body: string; at: number }): Promise<void> {
    const url = new URL(x.req.url ?? '/', 'http://recorder')
    const answer = await forwardRequest(x.target, x.req, x.body)
    if (answer instanceof Error) {
      options.onUnreachable?.({ method: x.req.method ?? 'GET', path: url.pathname }, answer)
      x.res.writeHead(502, { 'content-type': 'application/json' }).end(unreachableBody(answer))
      return
    }
    x.res.writeHead(answer.status, answer.responseHeaders).end(answer.responseBody)
    record({ host: x.host, path: url.pathname, search: url.search, ...answer }, x.at)
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
    close: async () => {
      await Promise.all([base.close(), api.close()])
    },
  }
}

/** An exchange forwarded as it came (hop-by-hop headers dropped), or the error when the target did not answer. */
export async function forwardRequest(target: string, req: IncomingMessage, body: string): Promise<Omit<Recorded, 'host' | 'path' | 'search'> | Error> {
  const url = new URL(req.url ?? '/', 'http://recorder')
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !REQUEST_DROPPED.has(k)).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]))
  const method = req.method ?? 'GET'
  const answer = await fetch(`${target}${url.pathname}${url.search}`, {
    method, headers, body: method === 'GET' || method === 'HEAD' || body === '' ? undefined : body, redirect: 'manual',
  }).catch((error: Error) => error)
  if (answer instanceof Error) return answer
  const text = await answer.text()
  const responseHeaders = Object.fromEntries([...answer.headers].filter(([k]) => !RESPONSE_DROPPED.has(k)))
  return { method, headers, body, status: answer.status, responseHeaders, responseBody: text }
}

/** The 502 JSON a proxy answers when the target did not answer (never a hang). */
export function unreachableBody(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return JSON.stringify({ error: `record: the target did not answer: ${error.message}${cause}`, code: 'TARGET_UNREACHABLE' })
}

/** Listens on `host:port` (0 = a free port); the URL and a close that ends open connections. */
export async function listen(server: Server, host: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
