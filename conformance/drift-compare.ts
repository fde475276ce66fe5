import type { Exchange, ScenarioResult, StepResult } from './types.js'

/** What two answers to the same step disagree on. */
export type DriftAspect = 'status' | 'code' | 'field-missing' | 'field-extra' | 'field-type' | 'content-type' | 'header'

/**
 * Who is out of line: the target fails the scenario's spec checks or the contract while the
 * sandbox passes (`target-violates-spec`), the reverse (`sandbox-violates-spec`), both pass and
 * still differ — the spec is silent and the sandbox decided otherwise (`decision-differs`) — or
 * both fail (`both-fail`).
 */
export type DriftKind = 'target-violates-spec' | 'sandbox-violates-spec' | 'decision-differs' | 'both-fail'

export interface DriftFinding {
  scenario: string
  /** Step position, `3` or `3.1` inside an include, and its label. */
  step: string
  label: string
  request: string
  aspect: DriftAspect
  kind: DriftKind
  /** JSON path of the field, or the header name. */
  where?: string
  sandbox: unknown
  target: unknown
  /** The scenario's rule ids: where to look in docs/rules.md and docs/decisions.md. */
  covers: string[]
}

export interface DriftComparison {
  findings: DriftFinding[]
  /** Steps with an HTTP exchange on both sides. */
  compared: number
  /** Steps that ran on one side only (e.g. control-plane steps a deployment skips), by scenario. */
  notCompared: Array<{ scenario: string; step: string; reason: string }>
}

/**
 * Headers whose presence the spec gives meaning to; the rest (dates, connection, ids) differ by
 * nature. Content type is compared as a class (JSON, NDJSON, HTML, text).
 */
export const WATCHED_HEADERS = ['retry-after', 'www-authenticate', 'location', 'allow', 'cache-control'] as const

/** Compares two runs of the same scenarios step by step (issue 19 item 5). */
export function compareRuns(sandbox: ScenarioResult[], target: ScenarioResult[]): DriftComparison {
  const out: DriftComparison = { findings: [], compared: 0, notCompared: [] }
  const byId = new Map(target.map((s) => [s.id, s]))
  for (const mine of sandbox) {
    const theirs = byId.get(mine.id)
    if (!theirs) continue
    // A scenario the target could not run at all (a missing credential) is one line, not one per step.
    if (theirs.outcome === 'skipped' || mine.outcome === 'skipped') {
      out.notCompared.push({ scenario: mine.id, step: '*', reason: `${mine.outcome === 'skipped' ? 'sandbox' : 'target'}: ${(mine.outcome === 'skipped' ? mine.reason : theirs.reason) ?? 'skipped'}` })
      continue
    }
    const a = flatten(mine.steps)
    const b = new Map(flatten(theirs.steps).map((s) => [s.at, s.step]))
    for (const { at, step } of a) {
      const other = b.get(at)
      if (!step.exchange || !other?.exchange) {
        if (step.exchange || other?.exchange) out.notCompared.push({ scenario: mine.id, step: at, reason: other?.skipped ?? step.skipped ?? 'ran on one side only' })
        continue
      }
      out.compared++
      const base = { scenario: mine.id, step: at, label: step.label, request: `${step.exchange.method} ${step.exchange.path}`, kind: kindOf(step, other), covers: mine.covers }
      for (const d of compareExchanges(step.exchange, other.exchange)) out.findings.push({ ...base, ...d })
    }
  }
  return out
}

type Difference = Pick<DriftFinding, 'aspect' | 'where' | 'sandbox' | 'target'>

/** Status, error code, body shape (only when the statuses agree) and watched headers. */
export function compareExchanges(sandbox: Exchange, target: Exchange): Difference[] {
  const diffs: Difference[] = []
  const [s, t] = [sandbox.response, target.response]
  if (s.status !== t.status) diffs.push({ aspect: 'status', sandbox: s.status, target: t.status })
  const [sc, tc] = [codeOf(s.body), codeOf(t.body)]
  if (sc !== tc) diffs.push({ aspect: 'code', where: 'code', sandbox: sc ?? null, target: tc ?? null })
  const [sk, tk] = [contentClass(s.headers), contentClass(t.headers)]
  if (sk !== tk) diffs.push({ aspect: 'content-type', where: 'content-type', sandbox: sk, target: tk })
  for (const name of WATCHED_HEADERS) {
    const [has, theirs] = [headerOf(s.headers, name) !== undefined, headerOf(t.headers, name) !== undefined]
    if (has !== theirs) diffs.push({ aspect: 'header', where: name, sandbox: has ? 'present' : 'absent', target: theirs ? 'present' : 'absent' })
  }
  // Different statuses have different bodies by design: the status finding says it all.
  if (s.status === t.status && sk === tk) diffs.push(...compareShapes(shapeOf(s.body), shapeOf(t.body)))
  return diffs
}

/**
 * Fields the sandbox adds to name an exchange (an error body's `request_id`, a JSON-RPC error's
 * `data.request_id`): a deployment without them does not disagree with the spec, so their presence
 * is not compared; their type is when both sides have them (docs/decisions.md, Request-Id).
 */
export const DIAGNOSTIC_FIELDS = ['$.request_id', '$.error.data.request_id'] as const

function diagnostic(path: string, having: Map<string, string>): boolean {
  if ((DIAGNOSTIC_FIELDS as readonly string[]).includes(path)) return true
  // A JSON-RPC `error.data` that holds nothing but the request id is the id's wrapper.
  return path === '$.error.data' && [...having.keys()].every((p) => !p.startsWith('$.error.data.') || p === '$.error.data.request_id')
}

function compareShapes(sandbox: Map<string, string>, target: Map<string, string>): Difference[] {
  const diffs: Difference[] = []
  for (const [path, type] of sandbox) {
    const other = target.get(path)
    if (underEmptyArray(path, target) || (other === undefined && diagnostic(path, sandbox))) continue
    if (other === undefined) {
      if (!hasAncestor(path, target, sandbox)) diffs.push({ aspect: 'field-missing', where: path, sandbox: type, target: 'absent' })
    } else if (other !== type && type !== 'null' && other !== 'null') diffs.push({ aspect: 'field-type', where: path, sandbox: type, target: other })
  }
  for (const [path, type] of target) {
    if (!sandbox.has(path) && !underEmptyArray(path, sandbox) && !hasAncestor(path, sandbox, target) && !diagnostic(path, target)) diffs.push({ aspect: 'field-extra', where: path, sandbox: 'absent', target: type })
  }
  return diffs
}

/** An empty array says nothing about its elements' fields (a shared deployment has more rows). */
function underEmptyArray(path: string, other: Map<string, string>): boolean {
  for (let at = path.indexOf('[]'); at > 0; at = path.indexOf('[]', at + 2)) {
    const array = path.slice(0, at)
    if (other.get(array) === 'array' && !other.has(`${array}[]`)) return true
  }
  return false
}

/** A field under a parent that is itself missing is reported once, at the parent. */
function hasAncestor(path: string, lacking: Map<string, string>, having: Map<string, string>): boolean {
  for (let cut = path.lastIndexOf('.'); cut > 0; cut = path.lastIndexOf('.', cut - 1)) {
    const parent = path.slice(0, cut).replace(/\[\]$/, '')
    if (having.has(parent) && !lacking.has(parent)) return true
  }
  return false
}

/**
 * Path → JSON type for every field, arrays merged over their elements (`campaigns[].status`).
 * Keys that are data rather than names (ids, dates, numbers) fold into `*`, so two worlds with
 * different ids compare equal. A string that is NDJSON or HTML has no fields.
 */
export function shapeOf(body: unknown, path = '$', out = new Map<string, string>(), depth = 0): Map<string, string> {
  const type = body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body
  const seen = out.get(path)
  if (!seen || seen === 'null') out.set(path, type)
  if (depth > 8) return out
  if (Array.isArray(body)) for (const item of body.slice(0, 20)) shapeOf(item, `${path}[]`, out, depth + 1)
  else if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) shapeOf(value, `${path}.${DATA_KEY.test(key) ? '*' : key}`, out, depth + 1)
  }
  return out
}

const DATA_KEY = /^(?:\d[\d\-:T.Z]*|[a-z]{2,5}_[A-Za-z0-9]{6,}|[0-9a-f-]{16,})$/

function flatten(steps: StepResult[], prefix = ''): Array<{ at: string; step: StepResult & { skipped?: string } }> {
  return steps.flatMap((step) => {
    const at = `${prefix}${step.index + 1}`
    const own = { at, step: step.outcome === 'skipped' ? { ...step, skipped: step.reason } : step }
    return [own, ...flatten(step.children ?? [], `${at}.`)]
  })
}

function kindOf(sandbox: StepResult, target: StepResult): DriftKind {
  const ok = (s: StepResult) => s.outcome === 'passed' && !s.violations.some((v) => v.severity === 'error')
  if (ok(sandbox)) return ok(target) ? 'decision-differs' : 'target-violates-spec'
  return ok(target) ? 'sandbox-violates-spec' : 'both-fail'
}

function codeOf(body: unknown): string | undefined {
  const code = body && typeof body === 'object' && !Array.isArray(body) ? (body as { code?: unknown }).code : undefined
  return typeof code === 'string' ? code : undefined
}

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name)
  return key === undefined ? undefined : headers[key]
}

/** The content type as a class: json, ndjson, html, text, other, or none. */
export function contentClass(headers: Record<string, string>): string {
  const type = headerOf(headers, 'content-type')?.split(';')[0].trim().toLowerCase()
  if (!type) return 'none'
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type.endsWith('jsonl')) return 'ndjson'
  if (type === 'application/json' || type.endsWith('+json')) return 'json'
  if (type === 'text/html') return 'html'
  return type.startsWith('text/') ? 'text' : 'other'
}
