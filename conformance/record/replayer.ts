import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { jsonOrText } from '../../src/support/json-or-text.js'
import { Placeholders } from './placeholders.js'
import { forwardRequest, readBody, unreachableBody } from './recorder.js'
import { listen } from '../listen-local.js'
import type { RecordingFile, StoredExchange } from './recording-file.js'
import { matchKey, storedOf } from './recording-file.js'

export interface ReplayerOptions {
  recording: RecordingFile
  host?: string
  port?: number
  apiPort?: number
  /** `--capture-on-miss`: a request the recording lacks is forwarded here once and appended. */
  capture?: { targetBase: string; targetApi: string }
  /** After each answer (progress): how many were served from the recording, missed, captured. */
  onAnswer?: (counts: ReplayCounts) => void
}

export interface ReplayCounts {
  replayed: number
  missed: number
  captured: number
}

export interface Replayer {
  baseUrl: string
  apiUrl: string
  readonly counts: ReplayCounts
  /** The recording with the captured exchanges appended (scrubbed as `record` writes them). */
  recording(): RecordingFile
  close(): Promise<void>
}

/**
 * `adops-sandbox record --replay DIR` (issue 38; Hoverfly's simulate mode): serves the recorded
 * answers on both hosts. The n-th identical request (`matchKey`) gets the n-th recorded answer and
 * the last one repeats after that; a request the recording lacks is a 404 `NOT_RECORDED`, or with
 * `capture` is forwarded once, answered, and appended (later identical requests replay it).
 */
export async function startReplayer(options: ReplayerOptions): Promise<Replayer> {
  const { recording } = options
  const exchanges = [...recording.exchanges]
  const answers = new Map<string, StoredExchange[]>()
  const served = new Map<string, number>()
  const keyOf = (x: { host: string; method: string; path: string; search: string; body: string }, credential: string) => matchKey({ ...x, credential })
  for (const x of exchanges) {
    const key = keyOf(x, x.credential?.header ?? 'none')
    answers.set(key, [...(answers.get(key) ?? []), x])
  }
  // Names the client's credentials after the recording's placeholders; values stay in memory.
  const placeholders = new Placeholders(recording.key_headers, recording.placeholders)
  const counts: ReplayCounts = { replayed: 0, missed: 0, captured: 0 }
  const handle = (host: 'base' | 'api', target: string | null) => createServer((req, res) => {
    readBody(req, res, (body) => void answer({ host, target, req, res, body }))
  })
  async function answer(x: { host: 'base' | 'api'; target: string | null; req: IncomingMessage; res: ServerResponse; body: string }): Promise<void> {
    const url = new URL(x.req.url ?? '/', 'http://replay')
    const method = x.req.method ?? 'GET'
    const headers = Object.fromEntries(Object.entries(x.req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]))
    const seen = { host: x.host, method, path: url.pathname, search: url.search, headers, body: x.body, status: 0, responseHeaders: {}, responseBody: '' }
    const credential = placeholders.credentialOf(seen)
    const key = keyOf(seen, credential?.header ?? 'none')
    const queue = answers.get(key)
    if (queue) {
      const n = served.get(key) ?? 0
      served.set(key, n + 1)
      const recorded = queue[Math.min(n, queue.length - 1)]
      counts.replayed++
      send(x.res, recorded.status, recorded.headers, withRpcId(recorded.answer, x.body))
    } else if (!x.target) {
      counts.missed++
      send(x.res, 404, { 'content-type': 'application/json' }, JSON.stringify({
        error: `not recorded: ${method} ${url.pathname}${url.search} on the ${x.host} host (${credential ? `${credential.header} credential` : 'no credential'}${x.body ? ', this body' : ''})`,
        code: 'NOT_RECORDED',
        hint: 'the recording has no answer for this request; replay with --capture-on-miss --target-base URL --target-api URL to forward it once and append it, or record the session again',
      }))
    } else {
      const forwarded = await forwardRequest(x.target, x.req, x.body)
      if (forwarded instanceof Error) {
        counts.missed++
        send(x.res, 502, { 'content-type': 'application/json' }, unreachableBody(forwarded))
      } else {
        counts.captured++
        const stored = storedOf({ host: x.host, path: url.pathname, search: url.search, ...forwarded }, placeholders)
        exchanges.push(stored)
        answers.set(key, [stored])
        served.set(key, 1)
        send(x.res, forwarded.status, forwarded.responseHeaders, forwarded.responseBody)
      }
    }
    options.onAnswer?.({ ...counts })
  }
  const host = options.host ?? '127.0.0.1'
  const base = await listen(handle('base', options.capture?.targetBase.replace(/\/$/, '') ?? null), host, options.port ?? 0)
  const api = await listen(handle('api', options.capture?.targetApi.replace(/\/$/, '') ?? null), host, options.apiPort ?? 0).catch(async (error) => {
    await base.close()
    throw error
  })
  return {
    baseUrl: base.url,
    apiUrl: api.url,
    get counts() {
      return { ...counts }
    },
    recording: () => ({ ...recording, placeholders: recording.placeholders + placeholders.values().length, exchanges: [...exchanges] }),
    close: async () => {
      await Promise.all([base.close(), api.close()])
    },
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, headers).end(body)
}

/** A recorded JSON-RPC answer (JSON or `data:` lines) carrying the id of the request it now answers. */
function withRpcId(answer: string, requestBody: string): string {
  const request = jsonOrText(requestBody) as { jsonrpc?: string; id?: unknown } | null
  if (!request || typeof request !== 'object' || !('jsonrpc' in request) || request.id === undefined) return answer
  const rewrite = (text: string) => {
    const json = jsonOrText(text) as { id?: unknown } | null
    return json && typeof json === 'object' && 'id' in json ? JSON.stringify({ ...json, id: request.id }) : text
  }
  if (answer.trimStart().startsWith('{')) return rewrite(answer)
  return answer.split('\n').map((line) => (line.startsWith('data: ') ? `data: ${rewrite(line.slice('data: '.length))}` : line)).join('\n')
}
