import autocannon from 'autocannon'
import { openWindow, perRequest } from './machine-share.js'

/** One HTTP request shape to fire under load. */
export interface Target {
  url: string
  method: 'GET' | 'POST' | 'PATCH'
  headers?: Record<string, string>
  /** A fixed body, or one built per request (e.g. alternating budgets so every write is a change). */
  body?: string | ((n: number) => string)
  /** The status every answer must have; anything else is counted as a failure. */
  status: number
  /** The server process answering it, for CPU time per request. */
  pid?: number
}

export interface LoadFigures {
  rps: number
  p50: number
  p99: number
  mean: number
  requests: number
  /** Answers with another status than the target's, plus socket errors and timeouts. */
  failures: number
  statuses: Record<string, number>
  bytes_per_request: number
  /** Server CPU time (user + system) per answered request, ms: robust to other load on the machine. */
  cpu_ms_per_request: number | null
  /** Cores other processes on the machine used during the run (`openWindow`); null off Linux. */
  others_cores: number | null
}

/**
 * Fires `target` with `connections` keep-alive connections for `seconds` (autocannon, in-process);
 * the CPU time of the target's server process is sampled around the run.
 */
export async function fire(target: Target, options: { connections: number; seconds: number }): Promise<LoadFigures> {
  const { url, method, headers = {}, body, status } = target
  const sendHeaders = body === undefined ? headers : { 'content-type': 'application/json', ...headers }
  let n = 0
  const requests = typeof body === 'function'
    ? [{ method, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body(n++) }) }]
    : undefined
  const window = openWindow(target.pid)
  const result = await autocannon({
    url, method, headers: sendHeaders, body: typeof body === 'string' ? body : undefined, requests,
    connections: options.connections, duration: options.seconds, timeout: 10,
  })
  const { serverMs, othersCores } = window.end()
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]))
  const good = statuses[String(status)] ?? 0
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    requests: answered,
    // No answer at all is a failure too (a server that hangs must not look fast).
    failures: answered - good + result.errors + result.timeouts + (answered === 0 ? 1 : 0),
    statuses,
    bytes_per_request: answered ? Math.round(result.throughput.total / answered) : 0,
    cpu_ms_per_request: perRequest(serverMs, answered),
    others_cores: othersCores,
  }
}

/** One request, checked: used to verify a target before loading it (fail fast with the body). */
export async function probe(target: Target): Promise<{ status: number; bytes: number; text: string }> {
  const body = typeof target.body === 'function' ? target.body(0) : target.body
  const headers = body === undefined ? target.headers : { 'content-type': 'application/json', ...target.headers }
  const res = await fetch(target.url, { method: target.method, headers, body, signal: AbortSignal.timeout(10_000) })
  const text = await res.text()
  if (res.status !== target.status) {
    throw new Error(`${target.method} ${target.url} answered ${res.status}, expected ${target.status}: ${text.slice(0, 500)}`)
  }
  return { status: res.status, bytes: Buffer.byteLength(text), text }
}
