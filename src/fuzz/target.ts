import { createHash } from 'node:crypto'
import { request } from 'node:http'
import type { IncomingMessage } from 'node:http'
import { listen } from '../runtime/listen.js'
import type { Listening } from '../runtime/listen.js'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import { TABLE_NAMES } from '../store/layout.js'
import { sequentialIds } from '../runtime/ids.js'

/** The admin token the fuzz target runs with: the control plane refuses anyone without it. */
export const ADMIN_TOKEN = 'fuzz-admin-token-0123456789'

/** One request exactly as sent: duplicate header lines as arrays, a body as raw bytes. */
export interface RawRequest {
  host: 'base' | 'api'
  method: string
  path: string
  headers: Record<string, string | string[]>
  body?: Buffer
  /** The contract operation it was aimed at (reports only). */
  operation?: string
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** Set when no answer came within the time limit, or the connection failed. */
  failure?: string
}

/** An in-process sandbox on ephemeral ports whose store the fuzz suite can read directly. */
export interface FuzzTarget {
  sb: Sandbox
  urls: { base: string; api: string }
  send(req: RawRequest, timeoutMs?: number): Promise<RawResponse>
  /** A digest per table of the store (`TABLE_NAMES`): a refused request must leave all of them equal. */
  digest(): Record<string, string>
  close(): Promise<void>
}

export async function startFuzzTarget(world = 'default'): Promise<FuzzTarget> {
  // Sequential ids: the same seed draws the same ids, so a failure replays exactly.
  // The guess limit is lifted: the fuzz reaches the routes behind the door with the right token after
  // thousands of wrong ones from one address (the limit itself: admin-doors.test.ts).
  const sb = await buildSandbox({ world, adminToken: ADMIN_TOKEN, ids: sequentialIds(), guessLimit: { burst: 1_000_000, per_second: 1 } })
  const servers: Listening[] = [await listen(sb.baseListener, '127.0.0.1', 0), await listen(sb.apiListener, '127.0.0.1', 0)]
  const urls = { base: servers[0].url, api: servers[1].url }
  sb.ctx.urls = urls
  return {
    sb,
    urls,
    send: (req, timeoutMs = 10_000) => sendRaw(urls[req.host], req, timeoutMs),
    digest: () => digestOf(sb),
    async close() {
      await Promise.all(servers.map((s) => s.close()))
      await sb.close()
    },
  }
}

function digestOf(sb: Sandbox): Record<string, string> {
  const snapshot = sb.ctx.deps.store.snapshot() as unknown as Record<string, unknown>
  return Object.fromEntries(TABLE_NAMES.map((name) => [name, createHash('sha256').update(JSON.stringify(snapshot[name])).digest('hex')]))
}

/** One exchange on a fresh connection; a reply slower than `timeoutMs` counts as a hang. */
export function sendRaw(origin: string, req: RawRequest, timeoutMs: number): Promise<RawResponse> {
  return new Promise((resolve) => {
    const headers = { ...req.headers }
    if (req.body) headers['content-length'] = String(req.body.length)
    let done = false
    const finish = (res: RawResponse) => {
      if (!done) resolve(res)
      done = true
    }
    let out: ReturnType<typeof request>
    try {
      // host/port/path rather than a URL: a URL would resolve `..` and `.` before they reach the server.
      const { hostname, port } = new URL(origin)
      out = request({ hostname, port, path: req.path, method: req.method, headers, agent: false, timeout: timeoutMs }, onResponse)
    } catch (error) {
      // Node's client refuses to put some bytes on the wire (a space in the path, a newline in a header).
      return finish({ status: 0, headers: {}, text: '', failure: `unsendable: ${(error as Error).message}` })
    }
    function onResponse(res: IncomingMessage) {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => finish({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', (e) => finish({ status: 0, headers: {}, text: '', failure: `response error: ${e.message}` }))
    }
    out.on('timeout', () => {
      finish({ status: 0, headers: {}, text: '', failure: `no answer within ${timeoutMs} ms` })
      out.destroy()
    })
    out.on('error', (e) => finish({ status: 0, headers: {}, text: '', failure: `connection error: ${e.message}` }))
    out.end(req.body)
  })
}
