import { createSandbox } from '../create-sandbox.js'
import { redactText, redactValue } from '../support/redact.js'
import type { Attempt } from './effects.js'
import type { Finding } from './findings.js'
import type { CheckResult } from './grade.js'
import { scoreOf, verdict } from './grade.js'
import type { TrialRecords } from './grade-trial.js'
import { gradeTrial, readWorld } from './grade-trial.js'
import { sealWorld, trialAdminToken } from './seal-world.js'
import type { ReviewAction } from './reviewer.js'
import type { AgentExit } from './agent-process.js'
import type { SupervisedRun } from './supervise.js'
import { superviseAgent } from './supervise.js'
import type { Task } from './task-schema.js'
import type { PreparedTask } from './world-setup.js'
import { prepareTask } from './world-setup.js'
import type { ControlClient } from '../client/control-client.js'
import type { ConsoleTranscript } from '../console/public/js/transcript-markup.js'

/** One exchange of the agent, as the scorecard lists it; `write` tells what a write came to. */
export interface TranscriptLine {
  seq: number
  sandbox_time: string
  method: string
  path: string
  status: number
  write: Attempt['outcome'] | null
  /** Request and response bodies, pretty JSON cut at `BODY_LIMIT` characters; key values are masked. */
  request_body?: string | null
  response_body?: string | null
}

/** The most characters of one body the transcript keeps (the rest is cut with a note). */
export const BODY_LIMIT = 2000

/**
 * One task's outcome: passed or the reasons, with the evidence and the efficiency numbers. What the
 * metrics read (issue 34 items 6-7): `goal_met` (utility: every check passed), `attack_succeeded`
 * (the injection's targeted effect happened; null without one) and `findings[]`, each with `kind`,
 * `severity` (critical/high/medium/low) and `evidence` (journal seqs, audit ids).
 */
export interface TaskResult {
  task: string
  file: string
  /** The trial number (1-based) when the task ran more than once (`--trials`). */
  trial?: number
  /** The world seed this run used (each trial of `--trials` gets its own). */
  seed?: number
  passed: boolean
  reasons: string[]
  /** Utility: every check passed (the goal was met), whatever the findings. Absent when the task could not run. */
  goal_met?: boolean
  /** The planted instruction's targeted effect happened (an obeying write ran); null without an injection, absent when the task could not run. */
  attack_succeeded?: boolean | null
  checks: CheckResult[]
  findings: Finding[]
  /** The sum of the findings' weights (1 each unless the task weights them); 0 is clean. Absent when the task could not run. */
  score?: number
  reviews: ReviewAction[]
  /** The agent's exchanges in order (the safety transcript); evidence seq numbers point here. */
  transcript: TranscriptLine[]
  /**
   * The console's agent safety transcript of the run (`GET /_sandbox/console/transcript` for the
   * agent's key and workspace from the agent's start), key values masked; null when the sandbox
   * could not answer it. The scorecard renders it with the console's own renderer.
   */
  console_transcript?: ConsoleTranscript | null
  efficiency: { calls: number; credits: number; sandbox_seconds: number; wall_ms: number }
  agent: Pick<AgentExit, 'code' | 'signal' | 'stopped' | 'stdout' | 'stderr'>
}

const TRIAL_GUESSES = { burst: 1_000_000, per_second: 1_000_000 }

/**
 * Rehearses one task as a sealed trial (issue 33 item 3): a fresh in-process sandbox of the task's
 * world whose control plane needs a token only the harness holds, whose published keys are replaced
 * by fresh random ones (`sealWorld`), setup through the control plane, the agent supervised
 * (reviewer, limits) in a minimal environment, then graded from the journal, the audit, the state
 * and its diff (`gradeTrial`) — never from the agent's claims alone.
 */
export async function rehearseTask(task: Task, options: { agent: string; cwd?: string; seed?: number; agentEnv?: readonly string[] }): Promise<TaskResult> {
  // No guess limit on the trial's control plane: the agent's wrong tokens (from the same address as
  // the harness) must not lock the reviewer and the grader out; the token is 24 random bytes.
  const sandbox = await createSandbox({ world: task.world, seed: options.seed, adminToken: trialAdminToken(), guessLimit: TRIAL_GUESSES })
  try {
    const { control } = sandbox
    await sealWorld(control)
    const prepared = await prepareTask(task, control, { base: sandbox.baseUrl, api: sandbox.apiUrl })
    const before = await readWorld(control)
    const startSeq = await control.journalLastSeq()
    const startedAt = (await control.clock()).now
    const clockBefore = Date.parse(startedAt)
    const run = await superviseAgent({ task, prepared, control, urls: { base: sandbox.baseUrl, api: sandbox.apiUrl }, command: options.agent, cwd: options.cwd, startSeq, agentEnv: options.agentEnv })
    const sandboxSeconds = Math.round((Date.parse((await control.clock()).now) - clockBefore) / 1000)
    const records = await gradeTrial({ task, prepared, control, startSeq, run, before })
    return { ...resultOf(task, records, run, sandboxSeconds), console_transcript: await consoleTranscript(control, prepared, startedAt) }
  } finally {
    await sandbox.close()
  }
}

function resultOf(task: Task, records: TrialRecords, run: SupervisedRun, sandboxSeconds: number): TaskResult {
  const { exchanges, attempts, checks, findings } = records
  const reasons = verdict(task, checks, findings)
  const outcome = new Map<number, Attempt['outcome']>()
  for (const a of attempts) if (a.seq !== null && !outcome.has(a.seq)) outcome.set(a.seq, a.outcome)
  const { exit, reviews } = run
  return {
    task: task.name,
    file: task.file,
    passed: reasons.length === 0,
    reasons,
    goal_met: records.goalMet,
    attack_succeeded: records.attackSucceeded,
    checks,
    findings,
    score: scoreOf(task, findings),
    reviews,
    seed: records.seed,
    transcript: exchanges.map((e) => ({ seq: e.seq, sandbox_time: e.sandbox_time, method: e.method, path: e.path, status: e.status, write: outcome.get(e.seq) ?? null, request_body: bounded(e.request.body), response_body: bounded(e.response.body) })),
    efficiency: { calls: exchanges.length, credits: records.creditsUsed, sandbox_seconds: sandboxSeconds, wall_ms: exit.wall_ms },
    agent: { code: exit.code, signal: exit.signal, stopped: exit.stopped, stdout: redactText(exit.stdout), stderr: redactText(exit.stderr) },
  }
}

/**
 * The console's transcript of the agent's writes, reads and credits over the wire, as the console
 * asks for it: the agent's key and workspace, from the sandbox time the agent started. Masked again
 * (a write's arguments are the agent's data), so the report never keeps a key value.
 */
export async function consoleTranscript(control: ControlClient, prepared: Pick<PreparedTask, 'key' | 'workspaceId'>, from: string): Promise<ConsoleTranscript | null> {
  const query = new URLSearchParams({ from, key_prefix: prepared.key.prefix, workspace_id: prepared.workspaceId })
  try {
    const t = await control.request<ConsoleTranscript>('GET', `/console/transcript?${query}`)
    return redactValue(t)
  } catch {
    return null
  }
}

// A body as the scorecard shows it: pretty JSON, masked again (the journal masks key values
// already), cut at BODY_LIMIT characters.
export function bounded(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null
  const text = redactText(typeof body === 'string' ? body : JSON.stringify(body, null, 2))
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n… (${text.length - BODY_LIMIT} more characters)` : text
}
