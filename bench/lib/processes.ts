import { spawn } from 'node:child_process'
import type { ChildProcess, SpawnOptions } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** A child process the harness started; `stop()` always leaves nothing behind. */
export interface Child {
  proc: ChildProcess
  pid: number
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string>
  /** Everything written to stderr so far (for error messages). */
  stderr(): string
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>
}

const live = new Set<ChildProcess>()

/** Kills every child still running (SIGKILL): used on exit, error and Ctrl-C. */
export function killAll(): void {
  for (const proc of live) {
    try {
      proc.kill('SIGKILL')
    } catch {
      // Already gone.
    }
  }
  live.clear()
}

let guarded = false

/** Makes sure no child outlives the harness: normal exit, uncaught error, Ctrl-C or SIGTERM. */
export function guardChildren(): void {
  if (guarded) return
  guarded = true
  process.on('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping child processes\n`)
      killAll()
      process.exit(130)
    })
  }
}

/** Spawns a tracked child with piped stdio (stdout left to the caller). */
export function startChild(command: string, args: string[], options: SpawnOptions = {}): Child {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
  if (proc.pid === undefined) throw new Error(`could not start ${command} ${args.join(' ')}`)
  live.add(proc)
  let errText = ''
  proc.stderr?.on('data', (chunk: Buffer) => {
    errText = (errText + chunk.toString('utf8')).slice(-8_000)
  })
  const exited = new Promise<number | string>((resolve) => {
    proc.once('exit', (code, signal) => {
      live.delete(proc)
      resolve(code ?? signal ?? 'unknown')
    })
  })
  return {
    proc,
    pid: proc.pid,
    exited,
    stderr: () => errText,
    async stop(graceMs = 3_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return
      proc.kill('SIGTERM')
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs)
      await exited
      clearTimeout(timer)
    },
  }
}

/**
 * Polls `url` every `intervalMs` until it answers `status`; rejects when the child exits first or
 * `timeoutMs` passes. Resolves with the time of the first good answer (performance.now()).
 */
export async function waitForStatus(options: {
  url: string
  child: Child
  init?: RequestInit
  status?: number
  intervalMs?: number
  timeoutMs?: number
}): Promise<number> {
  const { url, child, init, status = 200, intervalMs = 10, timeoutMs = 30_000 } = options
  const deadline = performance.now() + timeoutMs
  let exited = false
  void child.exited.then(() => {
    exited = true
  })
  let last = 'no answer'
  while (performance.now() < deadline) {
    if (exited) throw new Error(`process ${child.pid} exited before ${url} answered ${status}: ${child.stderr().trim().slice(0, 2_000)}`)
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) })
      await res.arrayBuffer()
      if (res.status === status) return performance.now()
      last = `HTTP ${res.status}`
    } catch (error) {
      last = (error as Error).message
    }
    await sleep(intervalMs)
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (last: ${last})`)
}

/** Reads the first line a child writes to stdout (the sandbox's `--json` banner). */
export function firstLine(child: Child, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error(`no output from ${child.pid} within ${timeoutMs} ms: ${child.stderr()}`)), timeoutMs)
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8')
      const end = text.indexOf('\n')
      if (end < 0) return
      clearTimeout(timer)
      child.proc.stdout?.off('data', onData)
      child.proc.stdout?.resume()
      resolve(text.slice(0, end))
    }
    child.proc.stdout?.on('data', onData)
    void child.exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`process ${child.pid} exited (${code}) before printing: ${child.stderr().trim().slice(0, 2_000)}`))
    })
  })
}

/** Peak resident set size of a live process in MB (Linux `VmHWM`), or current RSS via /proc. */
export function peakRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status) ?? /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
    return match ? Math.round(Number(match[1]) / 1024) : null
  } catch {
    return null
  }
}

/**
 * CPU time (user + system) a live process has used so far, in ms (Linux /proc), or null. CPU per
 * request is steadier than req/s on a shared machine: other processes steal wall time, not CPU time.
 */
export function cpuTimeMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 (clock ticks, 100 Hz).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return null
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
