/** The header and query records of journal entries: redacted, and shared with the previous entry when equal. */
import type { IncomingHttpHeaders } from 'node:http'
import { redactCredential, redactText, redactValue } from '../support/redact.js'

const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'x-service-key', 'x-api-key', 'x-sandbox-admin', 'cookie'])
const KEPT_RESPONSE_HEADERS = ['content-type', 'retry-after', 'www-authenticate', 'allow', 'location', 'mcp-session-id']

/** Hands back the record it kept last when `next` has the same entries, so equal records are shared. */
export class LastRecord<T extends Record<string, unknown>> {
  #last: T | null = null

  keep(next: T): T {
    if (this.#last && sameEntries(this.#last, next)) return this.#last
    this.#last = Object.freeze(next)
    return next
  }
}

function sameEntries(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let count = 0
  for (const name in b) {
    if (a[name] !== b[name] || !Object.hasOwn(a, name)) return false
    count++
  }
  return count === Object.keys(a).length
}

/** The query as a redacted record, and the characters it takes. */
export function redactQuery(query: unknown): { record: Record<string, unknown>; chars: number } {
  const text = JSON.stringify(query ?? {})
  // Most exchanges have no query: skip the walk. The parsed query is masked value by value (names
  // included), never through its JSON text, so nothing is parsed back that masking could have broken.
  return { record: text === '{}' ? {} : { ...(redactValue(query) as Record<string, unknown>) }, chars: text.length }
}

type Redacted = { record: Record<string, string>; chars: number }

// The last few distinct header sets and their answers, most recent first: a client sends the same few
// headers request after request (an agent's loop alternates a handful of request kinds, whose
// `content-length` differs). No secret is kept for it: credential headers are kept masked, and
// headers that masking changed are not kept at all.
const KEPT_SHAPES = 8
type Kept = Array<{ shown: Record<string, string>; redacted: Redacted }>
// One list per set of credential header names (the default set, and each `--key-header` set), so a
// header kept as plain text where it is no credential is never reused where it is one.
const keptBySet = new Map<ReadonlySet<string>, Kept>()

/** The credential header names: the built-in ones plus configured key headers (issue 35). */
function credentialSet(extra: readonly string[]): ReadonlySet<string> {
  if (extra.length === 0) return CREDENTIAL_HEADERS
  const id = extra.join(',')
  for (const set of keptBySet.keys()) if ((set as CredentialSet).id === id) return set
  const set: CredentialSet = Object.assign(new Set([...CREDENTIAL_HEADERS, ...extra]), { id })
  // Bounded: a process holds a handful of sandboxes; past that the lists are dropped and rebuilt.
  if (keptBySet.size >= 16) keptBySet.clear()
  keptBySet.set(set, [])
  return set
}
type CredentialSet = Set<string> & { id: string }

/**
 * Request headers with credentials masked whatever their shape, and the characters they take;
 * `extra` names configured key headers, masked like `X-Service-Key`. Headers that mask to the same
 * record as a recent call's get its very answer, found by masking only the credential headers again.
 */
export function redactHeaders(headers: IncomingHttpHeaders, extra: readonly string[] = []): Redacted {
  const names = credentialSet(extra)
  let kept = keptBySet.get(names)
  if (!kept) keptBySet.set(names, (kept = []))
  const masks = new CredentialMasks()
  for (let i = 0; i < kept.length; i++) {
    const candidate = kept[i]
    if (!masksAlike(candidate.shown, headers, masks, names)) continue
    if (i > 0) kept.unshift(...kept.splice(i, 1))
    return candidate.redacted
  }
  const redacted = redactFresh(headers, names)
  const keepable = keepableOf(headers, redacted, names)
  if (keepable) {
    kept.unshift(keepable)
    if (kept.length > KEPT_SHAPES) kept.pop()
  }
  return redacted
}

/** Masks a call's credential header at most once, however many kept sets it is compared with. */
class CredentialMasks {
  #name: string | null = null
  #masked = ''

  of(name: string, value: string): string {
    // Requests carry one credential header as a rule; a second one is masked each time it is compared.
    if (this.#name !== name) {
      this.#name = name
      this.#masked = redactCredential(value)
    }
    return this.#masked
  }
}

function keepableOf(headers: IncomingHttpHeaders, redacted: Redacted, names: ReadonlySet<string>): Kept[number] | null {
  const shown: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const masked = redacted.record[name]
    if (names.has(name) && typeof value === 'string') shown[name] = masked
    else if (value === masked) shown[name] = masked
    // A repeated header, or one that held a secret: the next call masks afresh.
    else return null
  }
  return { shown, redacted }
}

function masksAlike(shown: Record<string, string>, headers: IncomingHttpHeaders, masks: CredentialMasks, names: ReadonlySet<string>): boolean {
  let count = 0
  for (const name in headers) {
    const value = headers[name]
    const kept = shown[name]
    if (typeof value !== 'string' || kept === undefined) return false
    if (names.has(name) ? masks.of(name, value) !== kept : value !== kept) return false
    count++
  }
  return count === Object.keys(shown).length
}

function redactFresh(headers: IncomingHttpHeaders, names: ReadonlySet<string>): Redacted {
  const record: Record<string, string> = {}
  let chars = 0
  for (const [name, value] of Object.entries(headers)) {
    const text = Array.isArray(value) ? value.join(', ') : (value ?? '')
    record[name] = names.has(name) ? redactCredential(text) : redactText(text)
    chars += name.length + record[name].length
  }
  return { record, chars }
}

/** The response headers worth keeping. */
export function pickHeaders(res: { getHeader(name: string): unknown }): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = res.getHeader(name)
    if (value !== undefined) out[name] = String(value)
  }
  return out
}
