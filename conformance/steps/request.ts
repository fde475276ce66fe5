import { z } from 'zod'
import { duration } from '../schema.js'
import type { Exchange, StepContext, StepSubject, Target } from '../types.js'
import { parseMs } from '../time.js'
import { jsonOrText } from '../../src/support/json-or-text.js'

const auth = z.union([
  z.string(),
  z.null(),
  z.strictObject({ bearer: z.string().optional(), service_key: z.string().optional(), api_key: z.string().optional(), authorization: z.string().optional() }),
])

/** `request`: one HTTP call to the base or api host (or an absolute `url`). */
export const requestSchema = z.strictObject({
  host: z.enum(['base', 'api']).default('base'),
  method: z.string().default('GET'),
  path: z.string().startsWith('/', 'must start with `/`').optional(),
  url: z.string().optional(),
  /** A named credential (`owner`), a key value, or `{bearer|service_key|api_key}` to pick the header. */
  auth: auth.optional(),
  headers: z.record(z.string(), z.string()).default({}),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  json: z.unknown().optional(),
  /** A raw body (e.g. malformed JSON); sent as application/json unless headers say otherwise. */
  body: z.string().optional(),
  timeout: duration.default('10s'),
}).refine((r) => (r.path === undefined) !== (r.url === undefined), 'give exactly one of `path` or `url`')

export type RequestSpec = z.output<typeof requestSchema>

/** Sends the request and records the exchange (bodies parsed as JSON when they are). */
export async function runRequest(spec: RequestSpec, ctx: StepContext): Promise<StepSubject> {
  const r = ctx.render(spec)
  const { target } = ctx
  const missing = missingCredential(r.auth, target)
  if (missing) return { skipped: `the target has no credential \`${missing}\` (pass --key ${missing}=<value>)` }
  const base = r.host === 'api' ? target.apiUrl : target.baseUrl
  const url = new URL(r.url ?? `${base.replace(/\/$/, '')}${r.path}`)
  for (const [k, v] of Object.entries(r.query)) url.searchParams.set(k, String(v))
  const headers: Record<string, string> = { ...authHeaders(r.auth, target), ...lower(r.headers) }
  let body: string | undefined
  if (r.json !== undefined || r.body !== undefined) {
    body = r.body ?? JSON.stringify(r.json)
    headers['content-type'] ??= 'application/json'
  }
  const method = r.method.toUpperCase()
  const started = performance.now()
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(parseMs(r.timeout)) })
  const text = await res.text()
  const exchange: Exchange = {
    host: r.url ? 'url' : r.host,
    method,
    url: url.toString(),
    path: url.pathname,
    request: { headers, query: Object.fromEntries(url.searchParams), body: r.json ?? r.body },
    response: { status: res.status, headers: Object.fromEntries(res.headers), body: jsonOrText(text), text },
    duration_ms: Math.round(performance.now() - started),
  }
  return { status: res.status, headers: exchange.response.headers, body: exchange.response.body, exchange }
}

/** A credential named like `owner` or `alex_client_a` that the target does not have. */
function missingCredential(auth: RequestSpec['auth'], target: Target): string | null {
  const names = typeof auth === 'string' ? [auth] : auth ? [auth.bearer, auth.service_key, auth.api_key] : []
  return names.find((n): n is string => n !== undefined && n !== 'none' && /^[a-z][a-z0-9_]*$/.test(n) && !(n in target.credentials)) ?? null
}

function authHeaders(auth: RequestSpec['auth'], target: Target): Record<string, string> {
  if (auth === undefined || auth === null || auth === 'none') return {}
  if (typeof auth === 'string') return { authorization: `Bearer ${credential(auth, target)}` }
  const out: Record<string, string> = {}
  if (auth.bearer !== undefined) out.authorization = `Bearer ${credential(auth.bearer, target)}`
  if (auth.authorization !== undefined) out.authorization = auth.authorization
  if (auth.service_key !== undefined) out['x-service-key'] = credential(auth.service_key, target)
  if (auth.api_key !== undefined) out['x-api-key'] = credential(auth.api_key, target)
  return out
}

/** A named credential's value; anything else is taken as the value itself. */
export function credential(name: string, target: Target): string {
  return target.credentials[name] ?? name
}

/** Header names lower-cased, as fetch reports them and reports compare them. */
export function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
}
