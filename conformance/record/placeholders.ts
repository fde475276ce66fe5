import { redactText } from '../../src/support/redact.js'
import type { Recorded } from './recorder.js'

/** Header names that carry a credential (and any the operator adds with `--key-header`). */
export const CREDENTIAL_HEADERS = ['authorization', 'x-service-key', 'x-api-key']

/** How a request carried its credential, by placeholder name (never the value). */
export interface Credential {
  /** The placeholder: `recorded_1`, … in order of first use. */
  name: string
  header: 'bearer' | 'service_key' | 'api_key' | string
  /** The value, to recognise it in an earlier answer (a key the session created); never written. */
  value: string
}

/**
 * The credentials of a recording, replaced by named placeholders (`recorded_1`, …): a value is
 * kept in memory only to recognise it again, never written. `scrub` masks every secret left in a
 * text, in every form `redactText` knows (plain, percent-encoded, `\u`-escaped).
 */
export class Placeholders {
  readonly #names = new Map<string, string>()
  readonly #extra: string[]
  readonly #taken: number

  /** `taken`: placeholders a recording already holds (`--capture-on-miss` names new ones after them). */
  constructor(extraHeaders: string[] = [], taken = 0) {
    this.#extra = extraHeaders.map((h) => h.toLowerCase())
    this.#taken = taken
  }

  /** The credential a request carried, or null without one. */
  credentialOf(exchange: Recorded): Credential | null {
    for (const header of [...CREDENTIAL_HEADERS, ...this.#extra]) {
      const raw = exchange.headers[header]
      if (!raw) continue
      const value = header === 'authorization' ? raw.replace(/^Bearer(\s+|$)/i, '') : raw
      // An empty credential is replayed as none: both are "no key was sent".
      if (value.trim() === '') return null
      return { name: this.nameOf(value), value, header: header === 'authorization' ? 'bearer' : header === 'x-service-key' ? 'service_key' : header === 'x-api-key' ? 'api_key' : header }
    }
    return null
  }

  /** The placeholder of a credential value, made on first sight. */
  nameOf(value: string): string {
    let name = this.#names.get(value)
    if (!name) this.#names.set(value, (name = `recorded_${this.#taken + this.#names.size + 1}`))
    return name
  }

  /** Whether a header carries a credential (it is never copied into a scenario). */
  isCredentialHeader(name: string): boolean {
    return CREDENTIAL_HEADERS.includes(name) || this.#extra.includes(name) || name === 'cookie'
  }

  /** `text` with every credential seen replaced by its placeholder and every other secret masked. */
  scrub(text: string): string {
    let out = text
    for (const [value, name] of this.#names) if (value.length >= 8) out = out.split(value).join(`[${name}]`)
    return redactText(out)
  }

  /** The credential values seen (for tests that prove none reached a file). */
  values(): string[] {
    return [...this.#names.keys()]
  }
}

/** Whether a string is shaped like a key or token (`svc_…`, `mcp_at_…`): never written as a value. */
export function looksSecret(value: string): boolean {
  return redactText(value) !== value
}
