import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { listen } from './listen-local.js'

/** An answer on its way back, to be changed in place by a planted divergence. */
export interface ProxiedAnswer {
  method: string
  path: string
  status: number
  headers: Record<string, string>
  /** Parsed JSON body, or null when the body is not JSON. */
  json: unknown
}

export type Plant = (answer: ProxiedAnswer) => void

const HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'])

/**
 * A forwarding proxy in front of one host that can change answers (`plant`): the drift check's
 * tests use it to stand in for a deployment that differs from the sandbox in known ways.
 */
export async function startDriftProxy(upstream: string, plant: Plant = () => undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      try {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k) && k !== 'host').map(([k, v]) => [k, String(v)]))
        const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined
        const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body, redirect: 'manual' })
        const text = await answer.text()
        const out: ProxiedAnswer = { method: req.method ?? 'GET', path: req.url ?? '/', status: answer.status, headers: {}, json: null }
        answer.headers.forEach((v, k) => { if (!HOP.has(k)) out.headers[k] = v })
        try { out.json = /json/.test(out.headers['content-type'] ?? '') ? JSON.parse(text) : null } catch { out.json = null }
        plant(out)
        const payload = out.json === null ? text : JSON.stringify(out.json)
        res.writeHead(out.status, out.headers).end(payload)
      } catch (error) {
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message, code: 'PROXY_ERROR' }))
      }
    })
  })
  return listen(server)
}
