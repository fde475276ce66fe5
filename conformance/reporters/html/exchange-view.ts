import type { Secrets } from '../../secrets.js'
import type { Exchange } from '../../types.js'
import { esc } from '../format.js'
import { bodyDetails, statusChip } from '../../../src/support/report-html.js'

/** A request and its response: method, URL, status, headers and full pretty-printed bodies. */
export function exchangeView(ex: Exchange, secrets: Secrets): string {
  const r = (text: string) => esc(secrets.redact(text))
  const query = Object.keys(ex.request.query ?? {}).length ? `<div class="kv">query ${r(JSON.stringify(ex.request.query))}</div>` : ''
  const request = `<div class="req"><span class="method">${r(ex.method)}</span> <code class="url">${r(ex.url)}</code> <span class="ms">${ex.duration_ms} ms</span></div>`
    + query + headersView('request headers', ex.request.headers, secrets) + bodyView('request body', ex.request.body, undefined, secrets)
  const status = ex.response.status
  const response = `<div class="res">${statusChip(status)} response</div>`
    + headersView('response headers', ex.response.headers, secrets) + bodyView('response body', ex.response.body, ex.response.text, secrets)
  return `<div class="exchange">${request}${response}</div>`
}

function headersView(label: string, headers: Record<string, string> | undefined, secrets: Secrets): string {
  const entries = Object.entries(headers ?? {})
  if (entries.length === 0) return ''
  const text = entries.map(([k, v]) => `${k}: ${CREDENTIAL_HEADERS.includes(k.toLowerCase()) ? maskCredential(v) : v}`).join('\n')
  return `<details class="body"><summary>${label} (${entries.length})</summary><pre tabindex="0">${esc(secrets.redact(text))}</pre></details>`
}

const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-service-key', 'cookie']

/** A credential header keeps its scheme and the key's prefix only (the prefix is what the list shows). */
function maskCredential(value: string): string {
  const [scheme, token] = value.includes(' ') ? value.split(/ (.*)/) : ['', value]
  const shown = (token ?? '').slice(0, 13)
  return `${scheme ? `${scheme} ` : ''}${shown}${(token ?? '').length > shown.length ? '…' : ''}`
}

// One body block, rendered like the rehearsal scorecard's (src/support/report-html.ts).
function bodyView(label: string, body: unknown, raw: string | undefined, secrets: Secrets): string {
  if (body === undefined && !raw) return ''
  return bodyDetails(label, secrets.redact(prettyBody(body, raw)))
}

function prettyBody(body: unknown, raw: string | undefined): string {
  if (body !== undefined && body !== null && typeof body === 'object') return JSON.stringify(body, null, 2)
  if (raw !== undefined) {
    try {
      return JSON.stringify(JSON.parse(raw), null, 2)
    } catch {
      return raw
    }
  }
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2)
}
