import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { redactText } from '../../src/support/redact.js'
import { jsonOrText } from '../../src/support/json-or-text.js'
import type { Placeholders } from './placeholders.js'
import type { Recorded } from './recorder.js'

/** One exchange as `recording.json` keeps it: the credential by placeholder, every text scrubbed. */
export interface StoredExchange {
  host: 'base' | 'api'
  method: string
  path: string
  search: string
  /** The credential the request carried, by placeholder and header kind (never its value); null without one. */
  credential: { name: string; header: string } | null
  body: string
  status: number
  headers: Record<string, string>
  answer: string
}

/** `recording.json`: what `record --replay DIR` serves (issue 38). */
export interface RecordingFile {
  version: 1
  recorded_from: string
  /** Extra credential headers given with `--key-header` when recording. */
  key_headers: string[]
  /** Placeholders named so far (`recorded_1` … `recorded_<n>`): `--capture-on-miss` names new ones after them. */
  placeholders: number
  exchanges: StoredExchange[]
}

export const RECORDING_FILE = 'recording.json'

// A cookie the target sets may be a session secret of a shape `redactText` does not know.
const DROPPED_ANSWER_HEADERS = new Set(['set-cookie', 'date'])

/**
 * Fields whose values are secrets whatever they look like (a real deployment's OAuth tokens need
 * not have the sandbox's shapes): masked in `recording.json`, and in a request on replay before it
 * is matched. In answers `code` is an error code, not an authorization code, so it is left.
 */
const REQUEST_SECRET_FIELDS = /^(code|code_verifier|key|api_key|password|client_secret|secret)$|token$/i
const ANSWER_SECRET_FIELDS = /^(key|api_key|password|client_secret|secret)$|token$/i
export const MASKED = '[masked]'

/** `text` (JSON, a query or a form body) with the string values of secret-named fields masked. */
export function maskSecretFields(text: string, fields: RegExp = REQUEST_SECRET_FIELDS): string {
  if (text === '') return text
  const json = jsonOrText(text)
  if (json !== null && typeof json === 'object') {
    let changed = false
    const masked = JSON.stringify(json, (name, value: unknown) => {
      if (typeof value === 'string' && name !== '' && fields.test(name) && value !== MASKED) {
        changed = true
        return MASKED
      }
      return value
    })
    return changed ? masked : text
  }
  if (/^\??[^\s{}"]*=/.test(text)) {
    const query = text.startsWith('?')
    const params = new URLSearchParams(text)
    let changed = false
    for (const name of new Set(params.keys())) {
      if (!fields.test(name) || params.getAll(name).every((v) => v === MASKED)) continue
      changed = true
      params.set(name, MASKED)
    }
    return changed ? `${query ? '?' : ''}${params.toString()}` : text
  }
  return text
}

/** An exchange with its credential replaced by a placeholder and every text scrubbed (no secret in any form). */
export function storedOf(exchange: Recorded, placeholders: Placeholders): StoredExchange {
  const credential = placeholders.credentialOf(exchange)
  const scrub = (text: string) => placeholders.scrub(text)
  return {
    host: exchange.host,
    method: exchange.method,
    path: scrub(exchange.path),
    search: maskSecretFields(scrub(exchange.search), REQUEST_SECRET_FIELDS),
    credential: credential ? { name: credential.name, header: credential.header } : null,
    body: maskSecretFields(scrub(exchange.body), REQUEST_SECRET_FIELDS),
    status: exchange.status,
    headers: Object.fromEntries(Object.entries(exchange.responseHeaders).filter(([k]) => !DROPPED_ANSWER_HEADERS.has(k)).map(([k, v]) => [k, scrub(v)])),
    answer: maskSecretFields(scrub(exchange.responseBody), ANSWER_SECRET_FIELDS),
  }
}

/** The recording file's text; `placeholders.values()` has met every credential of `exchanges` by then. */
export function recordingText(file: Omit<RecordingFile, 'version'>): string {
  return `${JSON.stringify({ version: 1, ...file }, null, 2)}\n`
}

export async function writeRecordingFile(dir: string, file: Omit<RecordingFile, 'version'>): Promise<string> {
  const path = join(dir, RECORDING_FILE)
  await writeFile(path, recordingText(file))
  return path
}

/** `DIR/recording.json`, checked enough to serve; a clear error otherwise. */
export async function readRecordingFile(dir: string): Promise<RecordingFile> {
  const path = join(dir, RECORDING_FILE)
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(error.code === 'ENOENT' ? `${path} does not exist: record a session first (adops-sandbox record --out ${dir})` : `${path}: ${error.message}`)
  })
  const file = jsonOrText(text) as Partial<RecordingFile> | string | null
  if (typeof file !== 'object' || file === null || file.version !== 1 || !Array.isArray(file.exchanges)) throw new Error(`${path} is not a recording (version 1) written by adops-sandbox record`)
  return { version: 1, recorded_from: file.recorded_from ?? 'unknown', key_headers: file.key_headers ?? [], placeholders: file.placeholders ?? 0, exchanges: file.exchanges }
}

/**
 * What identifies a request on replay: host, method, path, the query (parameters sorted), the JSON
 * body (keys sorted; a JSON-RPC `id` left out, it is the client's counter) and the credential's
 * header kind (`none` without one). Key-shaped values are compared masked.
 */
export function matchKey(request: { host: string; method: string; path: string; search: string; body: string; credential: string }): string {
  const query = [...new URLSearchParams(request.search)].sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y))
  return JSON.stringify([request.host, request.method.toUpperCase(), redactText(request.path), maskSecretFields(redactText(new URLSearchParams(query).toString())), maskSecretFields(redactText(canonicalBody(request.body))), request.credential])
}

function canonicalBody(body: string): string {
  const json = body.trim() === '' ? undefined : jsonOrText(body)
  if (json === undefined || typeof json === 'string') return body
  if (json && typeof json === 'object' && !Array.isArray(json) && 'jsonrpc' in json) {
    const { id: _id, ...rest } = json as Record<string, unknown>
    return sorted(rest)
  }
  return sorted(json)
}

function sorted(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v)
}
