import { createInterface } from 'node:readline'
import { ServiceError } from '../../src/client/errors.js'

/** An adapter's operations: each takes the request's params and returns the value (or throws). */
export type OpHandlers = Record<string, (params: Record<string, unknown>) => Promise<unknown> | unknown>

/** Thrown by a handler for an op the SDK does not have: answered as `kind: unsupported`. */
export class Unsupported extends Error {}

/**
 * The adapter side of the protocol (docs/guide-sdk.md): reads `{id, op, params}` lines from
 * `input`, runs the handler concurrently, writes one answer line per request; exits at end of input.
 */
export function serveAdapter(handlers: OpHandlers, io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = { input: process.stdin, output: process.stdout }): Promise<void> {
  const pending = new Set<Promise<void>>()
  const answer = (message: unknown): void => void io.output.write(`${JSON.stringify(message)}\n`)
  const lines = createInterface({ input: io.input })
  lines.on('line', (line) => {
    if (!line.trim()) return
    let request: { id?: unknown; op?: unknown; params?: unknown }
    try {
      request = JSON.parse(line) as typeof request
    } catch {
      return void answer({ id: -1, ok: false, error: { kind: 'validation', message: `not JSON: ${line.slice(0, 80)}` } })
    }
    const handler = typeof request.op === 'string' ? handlers[request.op] : undefined
    const params = (request.params ?? {}) as Record<string, unknown>
    const done = (async () => (handler ? handler(params) : Promise.reject(new Unsupported(`no op ${String(request.op)}`))))()
      .then((value) => answer({ id: request.id, ok: true, value: value ?? null }))
      .catch((error: unknown) => answer({ id: request.id, ok: false, error: describeError(error) }))
      .finally(() => pending.delete(done))
    pending.add(done)
  })
  return new Promise((resolve) => lines.on('close', () => void Promise.all(pending).then(() => resolve())))
}

/** A thrown error as the protocol's `error`: a client `ServiceError` keeps its kind, status, code and message. */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Unsupported) return { kind: 'unsupported', message: error.message }
  if (error instanceof ServiceError) return { kind: error.kind, status: error.status, code: error.code, message: error.message, attempts: error.attempts }
  return { kind: 'validation', message: error instanceof Error ? error.message : String(error) }
}
