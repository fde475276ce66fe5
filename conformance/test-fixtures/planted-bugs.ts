import { createServer } from 'node:http'
import { listen } from '../listen-local.js'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createSandbox } from '../../src/create-sandbox.js'
import type { RunningSandbox } from '../../src/create-sandbox.js'

/**
 * Ten violations a deployment could have, each planted by a proxy in front of a clean sandbox
 * (issue 38: the target `conform --explore` must find them on). Each names the explore property
 * that should catch it.
 */
export const PLANTED = {
  'held-write-200': 'held-write-waits',
  'charge-on-400': 'refused-changes-nothing',
  'missing-required-field': 'contract',
  'cross-workspace-leak': 'workspace-isolation',
  'retry-after-zero': 'retry-after-honoured',
  'scope-not-enforced': 'scope-enforced',
  'anonymous-read': 'auth-first',
  'key-value-listed': 'key-shown-once',
  'pause-repeated-ok': 'pause-is-not-repeated',
  'budget-not-as-asked': 'acknowledged-write-read-back',
} as const

export type PlantedBug = keyof typeof PLANTED

interface Call {
  method: string
  path: string
  query: string
  headers: Record<string, string>
  body: string
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

export interface PlantedTarget {
  baseUrl: string
  apiUrl: string
  adminToken: string | undefined
  /** The clean sandbox behind the proxies. */
  sandbox: RunningSandbox
  close(): Promise<void>
}

/** A multi-workspace sandbox behind two proxies (base, api) that plant `bugs` (default: all ten). */
export async function startPlantedTarget(bugs: ReadonlySet<PlantedBug> = new Set(Object.keys(PLANTED) as PlantedBug[])): Promise<PlantedTarget> {
  const sandbox = await createSandbox({ world: 'multi-workspace' })
  const keys = sandbox.keys
  const planted = new Planted(bugs, keys.alex_client_a, [keys.alex_client_a, keys.alex_client_b])
  const base = await proxy(sandbox.baseUrl, (call, send) => planted.base(call, send))
  const api = await proxy(sandbox.apiUrl, (call, send) => planted.api(call, send))
  return {
    baseUrl: base.url,
    apiUrl: api.url,
    adminToken: sandbox.adminToken ?? undefined,
    sandbox,
    async close() {
      await Promise.all([base.close(), api.close()])
      await sandbox.close()
    },
  }
}

type Send = (call: Call) => Promise<Answer>

class Planted {
  readonly #issued = new Map<string, string>()

  constructor(readonly bugs: ReadonlySet<PlantedBug>, readonly mainKey: string, readonly everyKey: string[]) {}

  async base(call: Call, send: Send): Promise<Answer> {
    const answer = await send(call)
    const body = parse(answer.body)
    if (call.path === '/api/v1/tools/run' && call.method === 'POST') {
      if (this.bugs.has('held-write-200') && answer.status === 202 && body?.status === 'pending_review') return { ...answer, status: 200 }
      if (this.bugs.has('pause-repeated-ok') && answer.status === 409 && body?.code === 'ALREADY_PAUSED') return json(200, { status: 'PAUSED', sandbox: true })
      if (this.bugs.has('charge-on-400') && answer.status === 400) {
        await send({ ...call, body: JSON.stringify({ script_name: 'pull_google_ads', args: ['--days', '7'], platform: 'google' }) })
      }
    }
    if (this.bugs.has('retry-after-zero') && answer.status === 429) return { ...answer, headers: { ...answer.headers, 'retry-after': '0' } }
    if (this.bugs.has('key-value-listed') && call.path === '/api/v1/keys') return this.#keyList(call, answer, body)
    return answer
  }

  async api(call: Call, send: Send): Promise<Answer> {
    if (this.bugs.has('anonymous-read') && call.path === '/v1/credits' && !credentialOf(call)) call = withKey(call, this.mainKey)
    if (this.bugs.has('budget-not-as-asked') && call.method === 'PATCH' && call.path.endsWith('/budget')) {
      const asked = parse(call.body)
      if (typeof asked?.daily_budget === 'number') call = { ...call, body: JSON.stringify({ daily_budget: asked.daily_budget + 1 }) }
    }
    const answer = await send(call)
    const body = parse(answer.body)
    if (this.bugs.has('scope-not-enforced') && answer.status === 403 && body?.code === 'SCOPE_MISSING' && call.path.endsWith('/budget')) return send(withKey(call, this.mainKey))
    if (this.bugs.has('cross-workspace-leak') && answer.status === 404 && call.method === 'GET' && call.path.startsWith('/v1/campaigns/')) {
      for (const key of this.everyKey) {
        const leaked = await send(withKey(call, key))
        if (leaked.status === 200) return leaked
      }
    }
    if (this.bugs.has('missing-required-field') && call.method === 'GET' && call.path === '/v1/campaigns' && Array.isArray(body?.campaigns)) {
      return { ...answer, body: JSON.stringify({ ...body, campaigns: (body.campaigns as Array<Record<string, unknown>>).map(({ campaign_name: _name, ...row }) => row) }) }
    }
    if (this.bugs.has('retry-after-zero') && answer.status === 429) return { ...answer, headers: { ...answer.headers, 'retry-after': '0' } }
    return answer
  }

  #keyList(call: Call, answer: Answer, body: Record<string, unknown> | null): Answer {
    if (call.method === 'POST' && answer.status === 201 && typeof body?.id === 'string' && typeof body.key === 'string') this.#issued.set(body.id, body.key)
    if (call.method !== 'GET' || !Array.isArray(body?.keys)) return answer
    const keys = (body.keys as Array<Record<string, unknown>>).map((k) => (this.#issued.has(String(k.id)) ? { ...k, value: this.#issued.get(String(k.id)) } : k))
    return { ...answer, body: JSON.stringify({ ...body, keys }) }
  }
}

function parse(text: string): Record<string, any> | null {
  try {
    const value = JSON.parse(text) as unknown
    return value && typeof value === 'object' ? (value as Record<string, any>) : null
  } catch {
    return null
  }
}

function json(status: number, body: unknown): Answer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) }
}

function credentialOf(call: Call): string | undefined {
  return call.headers.authorization ?? call.headers['x-service-key']
}

function withKey(call: Call, key: string): Call {
  const { 'x-service-key': _k, 'x-api-key': _a, ...headers } = call.headers
  return { ...call, headers: { ...headers, authorization: `Bearer ${key}` } }
}

/** An HTTP proxy on 127.0.0.1 (ephemeral port) whose `handle` decides what reaches `upstream` and what comes back. */
async function proxy(upstream: string, handle: (call: Call, send: Send) => Promise<Answer>): Promise<{ url: string; close(): Promise<void> }> {
  const send: Send = async (call) => {
    const res = await fetch(`${upstream}${call.path}${call.query}`, {
      method: call.method, headers: call.headers, body: ['GET', 'HEAD'].includes(call.method) || !call.body ? undefined : call.body, redirect: 'manual',
    })
    const headers = Object.fromEntries([...res.headers].filter(([k]) => !['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive'].includes(k)))
    return { status: res.status, headers, body: await res.text() }
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)).map(([k, v]) => [k, String(v)]))
      handle({ method: req.method ?? 'GET', path: url.pathname, query: url.search, headers, body: Buffer.concat(chunks).toString('utf8') }, send)
        .then((answer) => res.writeHead(answer.status, answer.headers).end(answer.body))
        .catch(() => res.writeHead(502).end())
    })
  })
  return listen(server)
}
