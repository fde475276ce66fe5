import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { AdapterAnswer, Op } from './protocol.js'
import { adapterAnswer, protocolProblem, versionValue } from './protocol.js'

/** The adapter could not be started, died, or broke the protocol. */
export class AdapterError extends Error {
  override name = 'AdapterError'
}

/** An answer carried a pending id but did not follow the protocol (the field at fault is named). */
export class ProtocolError extends AdapterError {
  override name = 'ProtocolError'
}

interface Pending {
  op: Op
  resolve: (answer: AdapterAnswer) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

/**
 * One SDK adapter process for a whole run (DESIGN "Conformance kit", SDK mode): spawned once through
 * the shell, spoken to in JSON lines; answers are matched to requests by `id`.
 */
export class SdkAdapter {
  readonly command: string
  /** `name@version` from the `version` op, or `unknown@unknown` when the adapter does not answer it. */
  identity = 'unknown@unknown'
  readonly #child: ChildProcessWithoutNullStreams
  readonly #pending = new Map<number, Pending>()
  readonly #stderr: string[] = []
  #next = 1
  #exited: string | null = null

  private constructor(command: string, child: ChildProcessWithoutNullStreams) {
    this.command = command
    this.#child = child
    createInterface({ input: child.stdout }).on('line', (line) => this.#onLine(line))
    createInterface({ input: child.stderr }).on('line', (line) => this.#log(line))
    child.on('exit', (code, signal) => this.#onExit(`the SDK adapter exited (${signal ?? `code ${code}`})`))
    child.on('error', (error) => this.#onExit(`the SDK adapter could not start: ${error.message}`))
    child.stdin.on('error', () => undefined)
  }

  /** Spawns `command` and asks its `version`; fails when it does not answer within `startMs`. */
  static async start(command: string, options: { cwd?: string; startMs?: number } = {}): Promise<SdkAdapter> {
    const child = spawn(command, { shell: true, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] })
    const adapter = new SdkAdapter(command, child)
    const answer = await adapter.call('version', {}, options.startMs ?? 30_000)
    if (answer.ok) {
      const version = versionValue.safeParse(answer.value)
      if (!version.success) throw new AdapterError(`\`version\` must answer {name, version}; got ${JSON.stringify(answer.value)}`)
      adapter.identity = `${version.data.name}@${version.data.version}`
    }
    return adapter
  }

  /** Sends one operation and waits for its answer (at most `timeoutMs`). */
  call(op: Op, params: Record<string, unknown>, timeoutMs: number): Promise<AdapterAnswer> {
    if (this.#exited) return Promise.reject(new AdapterError(this.#withLog(this.#exited)))
    const id = this.#next++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id)
        reject(new AdapterError(this.#withLog(`no answer to \`${op}\` (id ${id}) within ${timeoutMs} ms`)))
      }, timeoutMs)
      this.#pending.set(id, { op, resolve, reject, timer })
      this.#child.stdin.write(`${JSON.stringify({ id, op, params })}\n`)
    })
  }

  /** The adapter's last stderr lines (and stdout lines that were not protocol answers). */
  log(): string[] {
    return [...this.#stderr]
  }

  /** Closes stdin (the adapter should exit at end of input); kills it after `graceMs`. */
  async close(graceMs = 2000): Promise<void> {
    if (this.#exited) return
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()))
    this.#child.stdin.end()
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
  }

  #onLine(line: string): void {
    if (!line.trim()) return
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch {
      return this.#log(`stdout: ${line}`)
    }
    const parsed = adapterAnswer.safeParse(json)
    const id = parsed.success ? parsed.data.id : (json as { id?: unknown } | null)?.id
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined
    if (!pending) return this.#log(`stdout (${parsed.success ? 'answer to no pending request' : 'not an answer'}): ${line}`)
    this.#pending.delete(id as number)
    clearTimeout(pending.timer)
    // A line with a pending id is meant as its answer: a malformed one fails now, not at the timeout.
    if (!parsed.success) return pending.reject(new ProtocolError(`the answer to \`${pending.op}\` (id ${id}) breaks the adapter protocol: ${protocolProblem(parsed.error)}; line: ${line.slice(0, 300)}`))
    pending.resolve(parsed.data)
  }

  #onExit(reason: string): void {
    this.#exited ??= reason
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer)
      pending.reject(new AdapterError(this.#withLog(reason)))
      this.#pending.delete(id)
    }
  }

  #log(line: string): void {
    this.#stderr.push(line)
    if (this.#stderr.length > 20) this.#stderr.shift()
  }

  #withLog(message: string): string {
    return this.#stderr.length ? `${message}; adapter log: ${this.#stderr.slice(-5).join(' | ')}` : message
  }
}
