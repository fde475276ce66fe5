import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')

/** A spawned `adops-sandbox serve` (one node process, so a signal reaches the server itself). */
export interface ServeChild {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>
  /** The `--json` banner, once printed; rejects when the process exits first. */
  banner(): Promise<{ base_url: string; api_url: string; resumed: boolean; [field: string]: unknown }>
  /** Resolves once stdout holds `text` (or the process ends). */
  waitFor(text: string): Promise<void>
  /** Sends SIGKILL and waits for the process to be gone. */
  kill(): Promise<void>
}

const running = new Set<ChildProcess>()

/** Starts `serve` on ephemeral loopback ports with `args` (add `--json` to read the banner) and `extraEnv` (e.g. SANDBOX_ADMIN_TOKEN). */
export function spawnServe(args: string[], extraEnv: Record<string, string> = {}): ServeChild {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SANDBOX_'))), ...extraEnv }
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--port', '0', '--api-port', '0', '--log-level', 'warn', ...args], {
    cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let out = ''
  let err = ''
  const waiters: Array<() => void> = []
  const wake = () => waiters.splice(0).forEach((resume) => resume())
  child.stdout?.on('data', (chunk) => {
    out += chunk
    wake()
  })
  child.stderr?.on('data', (chunk) => (err += chunk))
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => {
    running.delete(child)
    wake()
    done(code)
  }))
  const banner = new Promise<string>((ok, fail) => {
    const onData = () => {
      if (out.includes('\n')) ok(out.slice(0, out.indexOf('\n')))
    }
    child.stdout?.on('data', onData)
    void exited.then((code) => fail(new Error(`serve exited (${code}) before its banner: ${err.trim()}`)))
  })
  banner.catch(() => undefined)
  return {
    child, exited, stdout: () => out, stderr: () => err,
    banner: async () => JSON.parse(await banner),
    async waitFor(text) {
      while (!out.includes(text) && child.exitCode === null && child.signalCode === null) await new Promise<void>((resume) => waiters.push(resume))
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

/** Kills every child still running (for `afterEach`). */
export async function killServeChildren(): Promise<void> {
  await Promise.all([...running].map((child) => {
    const gone = new Promise((done) => child.once('exit', done))
    child.kill('SIGKILL')
    return gone
  }))
}
