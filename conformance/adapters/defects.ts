import type { RestClientOptions } from '../../src/client/rest-client.js'

/**
 * Deliberately broken clients for the harness's self-test (`--defect <name>`): each one must fail
 * exactly the checks that describe it, and nothing else (research "SDK-conformance harness patterns").
 */
export const DEFECTS: Record<string, (options: RestClientOptions) => RestClientOptions> = {
  /** Never retries (SDK-03). */
  'no-retry': (o) => ({ ...o, retry: { ...o.retry, maxRetries: 0 } }),
  /** Retries at once, ignoring Retry-After and the backoff (SDK-03). */
  impatient: (o) => ({ ...o, timers: { sleep: async () => undefined, after: afterMs, now: () => Date.now() } }),
  /** Sends the key as X-API-Key instead of Authorization: Bearer (SDK-05). */
  'x-api-key': (o) => ({ ...o, fetch: (url, init) => fetch(url, { ...init, headers: swapToApiKey(init?.headers as Record<string, string>) }) }),
  /** Joins a repeated flag's values with commas (`--keyword a,b`): breaks a convention, not SDK-01. */
  'list-as-csv': (o) => ({ ...o, fetch: (url, init) => fetch(url, { ...init, body: joinRepeatedFlags(init?.body) }) }),
}

function joinRepeatedFlags(body: RequestInit['body']): RequestInit['body'] {
  if (typeof body !== 'string') return body
  const parsed = JSON.parse(body) as { args?: string[] }
  if (!Array.isArray(parsed.args)) return body
  const out: string[] = []
  for (let i = 0; i < parsed.args.length; i++) {
    const flag = parsed.args[i]
    const value = parsed.args[i + 1]
    const seen = out.indexOf(flag)
    if (flag.startsWith('--') && value !== undefined && !value.startsWith('--') && seen >= 0 && out[seen + 1] !== undefined) {
      out[seen + 1] = `${out[seen + 1]},${value}`
      i++
    } else out.push(flag)
  }
  return JSON.stringify({ ...parsed, args: out })
}

function afterMs(ms: number, fn: () => void): () => void {
  const timer = setTimeout(fn, ms)
  return () => clearTimeout(timer)
}

function swapToApiKey(headers: Record<string, string> = {}): Record<string, string> {
  const { authorization, ...rest } = headers
  return authorization ? { ...rest, 'x-api-key': authorization.replace(/^Bearer /, '') } : rest
}
