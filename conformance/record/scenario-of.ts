import { jsonOrText } from '../../src/support/json-or-text.js'
import type { Placeholders } from './placeholders.js'
import { looksSecret } from './placeholders.js'
import type { Recorded } from './recorder.js'

type Json = Record<string, unknown>

/**
 * Fields whose values the target makes up each time (times, request ids, key prefixes) or the
 * sandbox simulates (metrics, balances, charges): captured when a later call uses them, asserted
 * by type only.
 */
const VOLATILE = /^(request_id|at|.*_at|sandbox_time|date|.*_date|date_range|duration_ms|prefix|expires_in.*|ledger|used_by_key)$/
const SIMULATED = /^(impressions|clicks|conversions|cost|ctr|cpc|cpa|spend|conversion_value|roas|balance|charged|credits_charged|credit_cost|remaining|value|amount|rows)$/
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/
// Request headers worth replaying; everything else (user agent, encodings) is the client's own.
const KEPT_HEADERS = new Set(['accept', 'mcp-protocol-version', 'mcp-session-id', 'prefer', 'idempotency-key', 'x-request-id'])

/** A value an answer gave that a later request sent back: where to capture it from. */
interface Source {
  step: string
  capture: string
  from: string | { header: string }
  /** A key or token: the runner redacts it in reports (`secret`). */
  secret: boolean
}

type Wanted = Map<string, { capture: Record<string, string | { header: string }>; secret: string[] }>

// Lists a recorded world reproduces item by item; any other list of records (keys, audit entries,
// tools) may hold what the client never saw, so only its type is asserted.
const REPRODUCED_LISTS = new Set(['campaigns', 'connections'])

/**
 * The recording as a YAML scenario document: the client's calls in order against a sandbox on the
 * recorded world, each asserting the status, the code and the fields the target answered. Values an
 * answer gave and a later call sent back (ids, session ids, created keys) are captured and
 * templated; credentials are placeholders (`auth: recorded_1`).
 */
export function scenarioOf(exchanges: readonly Recorded[], placeholders: Placeholders, options: { world: string; title: string; keyNames: Map<string, string>; stableIds: Set<string> }): Json {
  const sources = new Map<string, Source>()
  const captures: Wanted = new Map()
  const steps: Json[] = exchanges.map((exchange, i) => {
    const id = `s${i + 1}`
    const step: Json = { id, request: requestOf(exchange, placeholders, { template: (text) => templated(text, sources, captures), sources, captures, keyNames: options.keyNames }) }
    const expect = expectOf(exchange, { earlier: (value) => use(value, sources, captures), stableIds: options.stableIds })
    if (expect) step.expect = expect
    learnSources(exchange, id, sources)
    return step
  })
  for (const step of steps) {
    const wanted = captures.get(step.id as string)
    if (wanted) step.capture = wanted.capture
    if (wanted?.secret.length) step.secret = wanted.secret
  }
  return {
    id: 'recorded.session',
    title: options.title,
    tags: ['recorded', 'sandbox'],
    world: options.world,
    steps,
  }
}

function requestOf(exchange: Recorded, placeholders: Placeholders, t: { template: (text: string) => string; sources: Map<string, Source>; captures: Wanted; keyNames: Map<string, string> }): Json {
  const { template } = t
  const credential = placeholders.credentialOf(exchange)
  const headers = Object.fromEntries(Object.entries(exchange.headers)
    // A credential header with no key in it (`Authorization: Bearer `) is replayed as it was sent.
    .filter(([name]) => KEPT_HEADERS.has(name) ? !placeholders.isCredentialHeader(name) : !credential && placeholders.isCredentialHeader(name) && name !== 'cookie')
    .map(([name, value]) => [name, placeholders.scrub(template(value))]))
  const query = Object.fromEntries([...new URLSearchParams(exchange.search)].map(([k, v]) => [k, placeholders.scrub(template(v))]))
  const body = exchange.body === '' ? undefined : jsonOrText(exchange.body)
  return {
    ...(exchange.host === 'api' ? { host: 'api' } : {}),
    ...(exchange.method === 'GET' ? {} : { method: exchange.method }),
    path: placeholders.scrub(template(exchange.path)),
    ...(credential ? { auth: authOf({ ...credential, name: t.keyNames.get(credential.name) ?? credential.name }, use(credential.value, t.sources, t.captures)) } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(Object.keys(query).length ? { query } : {}),
    ...(body === undefined ? {} : typeof body === 'string' ? { body: placeholders.scrub(template(body)) } : { json: mapStrings(body, (s) => placeholders.scrub(template(s))) }),
  }
}

/** A credential a request carried, by placeholder, or the capture of the key an earlier answer created. */
function authOf(credential: { name: string; header: string }, captured: string | null): unknown {
  const value = captured ?? credential.name
  if (credential.header === 'bearer') return value
  if (credential.header === 'service_key' || credential.header === 'api_key') return { [credential.header]: value }
  return value
}

/** The answer's status and what of its JSON a sandbox on the recorded world must give again. */
interface Stability {
  /** The template of a value an earlier answer gave, or null. */
  earlier: (value: string) => string | null
  /** Ids the recorded world fixes; any other id is the target's to make up. */
  stableIds: Set<string>
}

function expectOf(exchange: Recorded, stability: Stability): Json | null {
  const expect: Json = { status: exchange.status }
  const type = exchange.responseHeaders['content-type'] ?? ''
  const body = type.includes('json') ? jsonOrText(exchange.responseBody) : undefined
  if (body && typeof body === 'object') expect.json = stable(body, '', stability)
  return expect
}

/** `value` as an expectation: volatile and simulated fields by type, secrets by type, values an earlier answer gave by template. */
function stable(value: unknown, field: string, stability: Stability): unknown {
  if (Array.isArray(value)) {
    if (value.some((v) => v !== null && typeof v === 'object') && !REPRODUCED_LISTS.has(field)) return { type: 'array' }
    return value.map((v) => stable(v, field, stability))
  }
  if (value !== null && typeof value === 'object') {
    const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VOLATILE.test(k) || SIMULATED.test(k) ? typeOnly(v) : stable(v, k, stability)]))
    // A list the world does not reproduce may hold more or fewer than the client saw: so may its counts.
    const partial = Object.values(out).some((v) => (v as { type?: string } | null)?.type === 'array')
    for (const k of ['count', 'total', 'has_more']) if (partial && k in out) out[k] = typeOnly((value as Json)[k])
    return out
  }
  if (typeof value === 'string') {
    if (looksSecret(value) || ISO_TIME.test(value)) return { type: 'string' }
    const template = stability.earlier(value)
    if (template) return template
    if (/(^|_)id$/.test(field) && !stability.stableIds.has(value)) return { type: 'string' }
  }
  return value
}

function typeOnly(value: unknown): unknown {
  if (value === null) return { type: 'null' }
  if (Array.isArray(value)) return { type: 'array' }
  if (typeof value === 'number') return { type: 'number' }
  return { type: typeof value as 'string' }
}

/** Values this answer gave that a later request may send back: ids, tokens, session ids, created keys. */
function learnSources(exchange: Recorded, step: string, sources: Map<string, Source>): void {
  const session = exchange.responseHeaders['mcp-session-id']
  if (session && !sources.has(session)) sources.set(session, { step, capture: 'session', from: { header: 'mcp-session-id' }, secret: false })
  const body = jsonOrText(exchange.responseBody)
  if (!body || typeof body !== 'object') return
  let n = 0
  walk(body, '$', (text, path) => {
    if (text.length >= 6 && !ISO_TIME.test(text) && !sources.has(text) && /id$|key$|token|url$|^\$\.key$/.test(path.split('.').at(-1) ?? '')) {
      sources.set(text, { step, capture: `v${++n}`, from: path, secret: looksSecret(text) })
    }
  })
}

function walk(value: unknown, path: string, visit: (text: string, path: string) => void): void {
  if (typeof value === 'string') return visit(value, path)
  if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`, visit))
  if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}['${k}']`, visit)
}

/** `text` with every value an earlier answer gave (longest first) replaced by its capture. */
function templated(text: string, sources: Map<string, Source>, captures: Wanted): string {
  let out = text
  for (const [value] of [...sources].sort((a, b) => b[0].length - a[0].length)) {
    if (out.includes(value)) out = out.split(value).join(use(value, sources, captures)!)
  }
  return out
}

/** The template of a value an earlier answer gave, marking its step to capture it; null if none did. */
function use(value: string, sources: Map<string, Source>, captures: Wanted): string | null {
  const source = sources.get(value)
  if (!source) return null
  const wanted = captures.get(source.step) ?? { capture: {}, secret: [] }
  wanted.capture[source.capture] = source.from
  if (source.secret && !wanted.secret.includes(source.capture)) wanted.secret.push(source.capture)
  captures.set(source.step, wanted)
  return `\${{ ${source.step}.${source.capture} }}`
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]))
  return value
}
