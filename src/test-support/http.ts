import type { CreateSandboxOptions, RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'

/** World key values, fixed and public (fixtures/worlds/*.yaml, docs/getting-started.md). */
export const KEYS = {
  owner: 'svc_test_ownerAcme00000000000000000000000',
  agent: 'svc_test_agentAcme00000000000000000000000',
  reviewer: 'svc_test_reviewerAcme00000000000000000000',
  reporting: 'svc_test_reportingAcme0000000000000000000',
  signup: 'svc_test_signupOlivia00000000000000000000',
  alexUnpinned: 'svc_test_alexUnpinned00000000000000000000',
  alexAgency: 'svc_test_alexAgency0000000000000000000000',
  alexClientA: 'svc_test_alexClientA000000000000000000000',
  alexClientB: 'svc_test_alexClientB000000000000000000000',
  caseyClientA: 'svc_test_caseyClientA00000000000000000000',
  caseyUnpinned: 'svc_test_caseyUnpinned0000000000000000000',
} as const

export interface Answer {
  status: number
  body: any
  text: string
  headers: Headers
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string
  headers?: Record<string, string>
  /** An object is sent as JSON; a string is sent as is (with a JSON content type unless overridden). */
  body?: unknown
}

/** A running in-process sandbox plus a small fetch helper for both hosts and the control plane. */
export interface TestSandbox extends RunningSandbox {
  base(method: string, path: string, options?: CallOptions): Promise<Answer>
  api(method: string, path: string, options?: CallOptions): Promise<Answer>
  /** `GET /_sandbox/state` as JSON text: a refused request must leave it byte-identical. */
  stateText(): Promise<string>
}

export async function startSandbox(options: CreateSandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await createSandbox(options)
  // Every /_sandbox call of a test is the person's, so it carries the token; tests of the door itself override the header.
  const admin: Record<string, string> = sandbox.adminToken ? { 'x-sandbox-admin': sandbox.adminToken } : {}
  const base = (method: string, path: string, o: CallOptions = {}) =>
    call(sandbox.baseUrl, method, path, { ...o, headers: { ...(path.startsWith('/_sandbox') ? admin : {}), ...o.headers } })
  return Object.assign(sandbox, {
    base,
    api: (method: string, path: string, o: CallOptions = {}) => call(sandbox.apiUrl, method, path, o),
    stateText: async () => (await base('GET', '/_sandbox/state')).text,
  })
}

export async function call(origin: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  let body: string | undefined
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  }
  const res = await fetch(`${origin}${path}`, { method, headers: { ...headers, ...options.headers }, body })
  const text = await res.text()
  let parsed: unknown = undefined
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  return { status: res.status, body: parsed, text, headers: res.headers }
}

/** The `svc_test_` + 32 characters shape of every key the sandbox issues (KEY-01). */
export const KEY_FORMAT = /^svc_test_[A-Za-z0-9]{32}$/

/** Ids of one ENABLED and one PAUSED campaign of the default world (owner's view). */
export async function campaignsByStatus(sb: TestSandbox): Promise<{ enabled: string; paused: string }> {
  const list = (await sb.api('GET', '/v1/campaigns?limit=100', { key: KEYS.owner })).body.campaigns as Array<{ status: string; campaign_id: string }>
  const pick = (status: string) => list.find((c) => c.status === status)?.campaign_id ?? ''
  return { enabled: pick('ENABLED'), paused: pick('PAUSED') }
}
