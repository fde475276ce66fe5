import type { Contract } from '../../conformance/contract.js'
import type { RawRequest, RawResponse } from './target.js'

/** A full key value (KEY-01 shape) anywhere in a response. */
const KEY_VALUE = /svc_test_[A-Za-z0-9]{32}/g
// Hosted MCP and its OAuth endpoints answer in the OAuth / JSON-RPC framing (`{error, error_description}`),
// documented as `OAuthError` and `SignInChallenge` in the contract: they need `error`, not `code`.
const OAUTH_FRAMED = /^\/(mcp|authorize|token|register|revoke|oauth\/|\.well-known\/)/

export type ViolationKind = 'no-answer' | '5xx' | 'error-shape' | 'refused-changed-state' | 'contract' | 'key-leak'

export interface Violation {
  kind: ViolationKind
  detail: string
}

export interface Observed {
  req: RawRequest
  res: RawResponse
  /** Per-table digests before and after (`FuzzTarget.digest`). */
  before: Record<string, string>
  after: Record<string, string>
}

/** What the invariants need besides the exchange: the contract and which key values are real. */
export interface Judge {
  contract: Contract
  /** Every key value that would authenticate (world keys plus keys created so far). */
  keyValues: Set<string>
}

/** The invariants of issue 13 item 7 for one exchange; an empty list when all hold. */
export function checkExchange(judge: Judge, { req, res, before, after }: Observed): Violation[] {
  if (res.failure) return [{ kind: 'no-answer', detail: res.failure }]
  const found: Violation[] = []
  const path = req.path.split('?')[0]
  if (res.status >= 500) found.push({ kind: '5xx', detail: `${res.status} ${res.text.slice(0, 200)}` })
  if (res.status >= 400) {
    const shape = errorShape(req, res, path)
    if (shape) found.push({ kind: 'error-shape', detail: shape })
    // A write the gate blocked or that failed while running is audited (GATE-02, ERR-02): its answer
    // names the audit entry, and only the audit and the ledger (charge and refund) may move; credits may not.
    const audited = /"audit_id":"/.test(res.text) ? new Set(['audit', 'ledger']) : new Set<string>()
    const changed = Object.keys(before).filter((table) => before[table] !== after[table] && !audited.has(table))
    if (changed.length) found.push({ kind: 'refused-changed-state', detail: `${res.status} changed ${changed.join(', ')}` })
  }
  if (res.status >= 200 && res.status < 300 && req.method !== 'HEAD') {
    for (const v of judge.contract.validate(exchangeOf(req, res))) found.push({ kind: 'contract', detail: `${v.location}: ${v.message}` })
  }
  const leak = leakedKey(judge, req, res, path)
  if (leak) found.push({ kind: 'key-leak', detail: `${leak.slice(0, 12)}… in a ${res.status} answer` })
  return found
}

function errorShape(req: RawRequest, res: RawResponse, path: string): string | null {
  const type = String(res.headers['content-type'] ?? '')
  // A HEAD answer carries no body by definition; only its status is checked.
  if (req.method === 'HEAD') return res.text === '' ? null : 'HEAD answer with a body'
  // A connect link is a page for people: its 404/410 is HTML unless JSON is asked for (`NotFoundOrPage`).
  if (path.startsWith('/connect/') && /^text\/html\b/i.test(type) && !/application\/json/.test(String(req.headers.accept ?? ''))) return null
  if (!/^application\/json\b/i.test(type)) return `content type ${type || 'missing'} on ${res.status}: ${res.text.slice(0, 120)}`
  let body: unknown
  try {
    body = JSON.parse(res.text)
  } catch {
    return `${res.status} body is not JSON: ${res.text.slice(0, 120)}`
  }
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {}
  if (OAUTH_FRAMED.test(path)) {
    // Express routes `/mcp/` to the same endpoint (non-strict routing): the same framing rules hold.
    const mcp = path.replace(/\/$/, '') === '/mcp'
    if (res.status === 401 && mcp && !/^Bearer /.test(String(res.headers['www-authenticate'] ?? ''))) return '401 on /mcp without a Bearer WWW-Authenticate challenge'
    // The MCP transport refuses in JSON-RPC framing: `{jsonrpc, error: {code, message}, id}`.
    const rpc = fields.error as { code?: unknown; message?: unknown } | undefined
    if (mcp && fields.jsonrpc === '2.0' && typeof rpc?.code === 'number' && typeof rpc.message === 'string') return null
    return typeof fields.error === 'string' ? null : `${res.status} OAuth-framed body without error: ${res.text.slice(0, 120)}`
  }
  return typeof fields.error === 'string' && typeof fields.code === 'string' ? null : `${res.status} body is not {error, code}: ${res.text.slice(0, 120)}`
}

// Key values leave the server once, at creation (KEY-02). The control plane lists the world's own
// fixed, public keys to an admin, which is its documented job, so only its non-world keys count there.
function leakedKey(judge: Judge, req: RawRequest, res: RawResponse, path: string): string | null {
  const text = `${res.text}\n${JSON.stringify(res.headers)}`
  const creation = req.method === 'POST' && path === '/api/v1/keys' && res.status === 201
  const created = creation ? createdValue(res.text) : null
  for (const match of text.matchAll(KEY_VALUE)) {
    const value = match[0]
    if (value === created || !judge.keyValues.has(value)) continue
    if (path.startsWith('/_sandbox') && res.status < 300) continue
    return value
  }
  return null
}

/** The `key` field of a key-creation answer, if any. */
export function createdValue(text: string): string | null {
  try {
    const body = JSON.parse(text) as { key?: unknown }
    return typeof body.key === 'string' ? body.key : null
  } catch {
    return null
  }
}

function exchangeOf(req: RawRequest, res: RawResponse) {
  const [raw, query = ''] = req.path.split('?')
  // Express routes `/x/` as `/x`; Prism would read it as `/x/{id}` with an empty id, so validate it as `/x`.
  const path = raw.length > 1 ? raw.replace(/\/$/, '') : raw
  const flat = (h: Record<string, string | string[] | undefined>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]))
  let body: unknown = res.text
  try {
    body = JSON.parse(res.text)
  } catch {
    // Not JSON (an HTML page, an SSE stream): validated as text.
  }
  let requestBody: unknown
  try {
    requestBody = req.body ? JSON.parse(req.body.toString('utf8')) : undefined
  } catch {
    requestBody = req.body?.toString('utf8')
  }
  return {
    host: req.host, method: req.method, url: req.path, path,
    request: { headers: flat(req.headers), query: Object.fromEntries(new URLSearchParams(query)), body: requestBody },
    response: { status: res.status, headers: flat(res.headers), body, text: res.text },
    duration_ms: 0,
  }
}
