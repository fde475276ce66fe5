/**
 * Masking of key values and OAuth tokens wherever text is kept or logged (KEY-01, KEY-02): the
 * journal, logs and the audit. No imports, so `src/domain` may use it.
 */

/**
 * A key value (`svc_` (+ `test_`) + 32 characters, KEY-01), an OAuth secret of the hosted-MCP
 * authorization server (`mcp_at_`/`mcp_rt_`/`mcp_ac_` + 40 characters), or a generated admin token
 * of the control plane (`sbx_admin_` + 43 characters): an agent that sends the person's token
 * anywhere (a query, a body) must not leave it in the journal either.
 */
const SECRET = /svc_(?:test_)?[A-Za-z0-9_-]{32}|mcp_(?:at|rt|ac)_[A-Za-z0-9]{40}|sbx_admin_[A-Za-z0-9_-]{43}/g
const HAS_SECRET = new RegExp(SECRET.source)

/**
 * A run of at least 36 characters (the shortest secret) that may spell a secret once `%XX`
 * (percent-encoding) and `\uXXXX` (JSON string escapes) are decoded. An escape behind more than one
 * backslash counts too: a string holding `\u0074` literally, once serialized as JSON (a held
 * write's dedupe key, issue 36), reads `\\u0074`.
 */
const ENCODED_RUN = /(?:[\w-]|%[0-9A-Fa-f]{2}|\\+u[0-9A-Fa-f]{4}){36,}/g

/** The longest a secret can be written (escapes behind up to two backslashes): 53 characters (an admin token), each as `\\uXXXX`. */
export const ENCODED_SECRET_MAX = 53 * 7

/** A key value shown as its 12-character prefix, the way key records show it (KEY-02). */
export function maskKey(value: string): string {
  return `${value.slice(0, 12)}…[redacted]`
}

/**
 * Replaces every key value and OAuth token in `text` by its masked prefix, also when written with
 * percent-encoding or JSON `\u` escapes (the rest of the text is left as written, so JSON stays
 * JSON). Masking only ever shortens text. Cheap enough for every exchange: plain text is searched
 * only when a secret's shape follows a `svc_`/`mcp_`/`sbx_`, escapes only when it holds `%` or `\u`.
 */
export function redactText(text: string): string {
  const plain = holdsPlainSecret(text) ? text.replace(SECRET, maskKey) : text
  return plain.includes('%') || plain.includes('\\u') ? maskEncodedRuns(plain) : plain
}

/**
 * Every encoded run of `text` masked. A run written right after an odd number of backslashes
 * starts on the second half of an escaped backslash (`\\u0073…` in JSON text is a backslash, then
 * `u0073…`): when such a run is masked, the backslash before it goes too, or the one left behind
 * would escape the mask's first character and JSON text would stop being JSON (issue 36: a query
 * value written so killed the process when the journal parsed its record back).
 */
function maskEncodedRuns(text: string): string {
  let out = ''
  let last = 0
  for (const match of text.matchAll(ENCODED_RUN)) {
    const masked = maskEncodedRun(match[0])
    if (masked === match[0]) continue
    const at = match.index
    const escapedBackslashLost = match[0][0] === '\\' && masked[0] !== '\\' && oddBackslashesBefore(text, at)
    out += text.slice(last, escapedBackslashLost ? at - 1 : at) + masked
    last = at + match[0].length
  }
  return last === 0 ? text : out + text.slice(last)
}

function oddBackslashesBefore(text: string, at: number): boolean {
  let count = 0
  while (at - count - 1 >= 0 && text[at - count - 1] === '\\') count++
  return count % 2 === 1
}

/**
 * Whether `text` holds a match of `SECRET`, tried only where a `svc_`, `mcp_` or `sbx_` starts: every audit
 * answer and row holds a stored 12-character key prefix (`svc_test_ben`), and running the
 * expression over the whole text for it was most of the cost of masking (bench/README.md).
 */
function holdsPlainSecret(text: string): boolean {
  for (const prefix of SECRET_PREFIXES) {
    for (let at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
      SECRET_AT.lastIndex = at
      if (SECRET_AT.test(text)) return true
    }
  }
  return false
}

const SECRET_PREFIXES = ['svc_', 'mcp_', 'sbx_']

/** `SECRET` anchored where `lastIndex` points (sticky). */
const SECRET_AT = new RegExp(SECRET.source, 'y')

/**
 * `value` with every string in it (object keys included) passed through `redactText`; the same
 * reference when nothing changed, so clean values cost no copy. For records kept at rest (audit).
 */
export function redactValue<T>(value: T): T {
  // Most records hold nothing secret-like: one read-only walk proves it without building copies.
  return mayHoldSecret(value) ? redactDeep(value) : value
}

function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T
  if (Array.isArray(value)) {
    const items = value.map(redactDeep)
    return (items.some((item, i) => item !== value[i]) ? items : value) as T
  }
  if (value === null || typeof value !== 'object' || !isPlain(value)) return value
  let changed = false
  const out: Record<string, unknown> = {}
  for (const [name, item] of Object.entries(value)) {
    const shownName = redactText(name)
    out[shownName] = redactDeep(item)
    changed ||= shownName !== name || out[shownName] !== item
  }
  return (changed ? out : value) as T
}

/**
 * Whether `text` holds what `redactText` looks for (a secret's prefix, or an escape that may spell
 * one). Text shorter than the shortest secret (`svc_` + 32) holds none however it is written, so a
 * stored 12-character key prefix (`svc_test_ben`, in every audit row) does not make a row suspect.
 */
function suspect(text: string): boolean {
  return text.length >= SHORTEST_SECRET && (text.includes('svc_') || text.includes('mcp_') || text.includes('sbx_') || text.includes('\\u') || text.includes('%'))
}

const SHORTEST_SECRET = 36

/** Whether any string in `value` (object keys included) is `suspect`; walks what `redactDeep` would. */
function mayHoldSecret(value: unknown): boolean {
  if (typeof value === 'string') return suspect(value)
  if (Array.isArray(value)) return value.some(mayHoldSecret)
  if (value === null || typeof value !== 'object' || !isPlain(value)) return false
  for (const name in value) {
    if (Object.hasOwn(value, name) && (suspect(name) || mayHoldSecret((value as Record<string, unknown>)[name]))) return true
  }
  return false
}

/** Masks a credential header value (a key, or an opaque token) whatever its shape. */
export function redactCredential(value: string): string {
  const bearer = /^(Bearer\s+)(.*)$/i.exec(value)
  const token = bearer ? bearer[2] : value
  return `${bearer ? bearer[1] : ''}${token.length > 12 ? maskKey(token) : '[redacted]'}`
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** Masks the secrets a run spells once decoded, replacing only their written span. */
function maskEncodedRun(run: string): string {
  if (!run.includes('%') && !run.includes('\\u')) return run
  const { decoded, starts } = decodeRun(run)
  if (!HAS_SECRET.test(decoded)) return run
  let out = ''
  let last = 0
  for (const match of decoded.matchAll(SECRET)) {
    out += run.slice(last, starts[match.index]) + maskKey(match[0])
    last = starts[match.index + match[0].length]
  }
  return out + run.slice(last)
}

/** The run with `%XX` and `\uXXXX` decoded; `starts[i]` is where decoded character `i` is written. */
function decodeRun(run: string): { decoded: string; starts: number[] } {
  let decoded = ''
  const starts: number[] = []
  let i = 0
  while (i < run.length) {
    starts.push(i)
    let width = 1
    if (run[i] === '%') width = 3
    else if (run[i] === '\\') width = run.indexOf('u', i) - i + 5
    decoded += width === 1 ? run[i] : String.fromCharCode(parseInt(run.slice(i + width - (width === 3 ? 2 : 4), i + width), 16))
    i += width
  }
  starts.push(run.length)
  return { decoded, starts }
}
