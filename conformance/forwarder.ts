import { createServer } from 'node:http'
import { listen } from './listen-local.js'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'

/** A response on its way back through a forwarder; a transform may change any of it. */
export interface ForwardedResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export type Transform = (request: { method: string; path: string; headers: Record<string, string>; body: string }, response: ForwardedResponse) => ForwardedResponse

/**
 * A tiny HTTP forwarder on 127.0.0.1 (ephemeral port) to whatever `upstream()` names at the time of
 * each request, optionally rewriting responses. Used to put `prism proxy` in front of per-scenario
 * sandboxes, and by tests to build deliberately broken servers.
 */
export async function startForwarder(upstream: () => string | null, transform?: Transform): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => void forward(req, res, chunks))
  })
  async function forward(req: IncomingMessage, res: ServerResponse, chunks: Buffer[]): Promise<void> {
    const base = upstream()
    if (!base) return void res.writeHead(503).end()
    const headers = Object.fromEntries(Object.entries(req.headers)
      .filter(([k]) => !['host', 'connection', 'content-length'].includes(k)).map(([k, v]) => [k, String(v)]))
    const answer = await fetch(`${base}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: 'manual' }).catch(() => null)
    if (!answer) return void res.writeHead(502).end()
    let out: ForwardedResponse = {
      status: answer.status,
      headers: Object.fromEntries([...answer.headers].filter(([k]) => !['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive'].includes(k))),
      body: await answer.text(),
    }
    if (transform) out = transform({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0], headers, body: Buffer.concat(chunks).toString('utf8') }, out)
    res.writeHead(out.status, out.headers).end(out.body)
  }
  return listen(server)
}
