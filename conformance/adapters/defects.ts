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
}

function afterMs(ms: number, fn: () => void): () => void {
  const timer = setTimeout(fn, ms)
  return () => clearTimeout(timer)
}

function swapToApiKey(headers: Record<string, string> = {}): Record<string, string> {
  const { authorization, ...rest } = headers
  return authorization ? { ...rest, 'x-api-key': authorization.replace(/^Bearer /, '') } : rest
}
