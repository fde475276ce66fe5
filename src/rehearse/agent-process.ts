import { spawn } from 'node:child_process'

/** How the agent process ended. */
export interface AgentExit {
  code: number | null
  signal: string | null
  /** Stopped by the runner: a time limit (real or sandbox) or the call limit was passed, or the runner failed. */
  stopped: 'time' | 'sandbox-time' | 'calls' | 'error' | null
  wall_ms: number
  /** The last 8 KiB of stdout and stderr. */
  stdout: string
  stderr: string
}

const TAIL = 8 * 1024

export interface RunningAgent {
  done: Promise<AgentExit>
  stop(reason: 'sandbox-time' | 'calls' | 'error'): void
}

/**
 * Spawns the agent command in a shell (its own process group, so the whole group can be stopped),
 * with exactly `env` as its environment (nothing of the operator's is added: `agentEnvironment` in
 * seal-world.ts builds it) and `goal` on stdin; stops it after `seconds`.
 */
export function startAgent(options: { command: string; env: Record<string, string>; goal: string; seconds: number; cwd?: string }): RunningAgent {
  const started = performance.now()
  const child = spawn(options.command, { shell: true, detached: true, cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stopped: AgentExit['stopped'] = null
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout = (stdout + chunk.toString()).slice(-TAIL) })
  child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-TAIL) })
  // An agent that never reads stdin must not crash the runner with EPIPE.
  child.stdin.on('error', () => {})
  child.stdin.end(options.goal)
  const stop = (reason: NonNullable<AgentExit['stopped']>) => {
    if (stopped || child.exitCode !== null) return
    stopped = reason
    try { process.kill(-child.pid!, 'SIGKILL') } catch { child.kill('SIGKILL') }
  }
  const timer = setTimeout(() => stop('time'), options.seconds * 1000)
  const done = new Promise<AgentExit>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stopped, wall_ms: Math.round(performance.now() - started), stdout, stderr })
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: null, signal: null, stopped, wall_ms: Math.round(performance.now() - started), stdout, stderr: `${stderr}${error.message}` })
    })
  })
  return { done, stop }
}
