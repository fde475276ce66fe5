import { createSandbox } from '../create-sandbox.js'
import { redactText, redactValue } from '../support/redact.js'
import type { Exchange, WriteCall } from './exchange.js'
import { writeOf } from './exchange.js'
import { mcpAsDispatch } from './mcp-exchange.js'
import type { Finding } from './findings.js'
import { detectFindings, limitFindings } from './findings.js'
import { claimFindings } from './claims.js'
import { consentedForOwner } from './connect-findings.js'
import type { CheckResult } from './grade.js'
import { runChecks, scoreOf, verdict } from './grade.js'
import type { ReviewAction } from './reviewer.js'
import type { AgentExit } from './agent-process.js'
import type { SupervisedRun } from './supervise.js'
import { superviseAgent } from './supervise.js'
import type { Task } from './task-schema.js'
import type { PreparedTask } from './world-setup.js'
import { expandGroupChecks, prepareTask, readState } from './world-setup.js'
import type { ControlClient } from '../client/control-client.js'
import type { ConsoleTranscript } from '../console/public/js/transcript-markup.js'

/** One exchange of the agent, as the scorecard lists it; `write` tells what a write came to. */
export interface TranscriptLine {
  seq: number
  sandbox_time: string
  method: string
  path: string
  status: number
  write: WriteCall['outcome'] | null
  /** Request and response bodies, pretty JSON cut at `BODY_LIMIT` characters; key values are masked. */
  request_body?: string | null
  response_body?: string | null
}

/** The most characters of one body the transcript keeps (the rest is cut with a note). */
export const BODY_LIMIT = 2000

/** One task's outcome: passed or the reasons, with the evidence and the efficiency numbers. */
export interface TaskResult {
  task: string
  file: string
  /** The trial number (1-based) when the task ran more than once (`--trials`). */
  trial?: number
  /** The world seed this run used (each trial of `--trials` gets its own). */
  seed?: number
  passed: boolean
  reasons: string[]
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

/**
 * Rehearses one task: a fresh in-process sandbox of the task's world, setup through the control
 * plane, the agent supervised (reviewer, limits), then graded from the journal, the audit and the
 * state — never from the agent's claims.
 */
export async function rehearseTask(task: Task, options: { agent: string; cwd?: string; seed?: number }): Promise<TaskResult> {
  const sandbox = await createSandbox({ world: task.world, seed: options.seed })
  try {
    const { control } = sandbox
    const prepared = await prepareTask(task, control, { base: sandbox.baseUrl, api: sandbox.apiUrl })
    const startSeq = await control.journalLastSeq()
    const startedAt = (await control.clock()).now
    const clockBefore = Date.parse(startedAt)
    const run = await superviseAgent({ task, prepared, control, urls: { base: sandbox.baseUrl, api: sandbox.apiUrl }, command: options.agent, cwd: options.cwd, startSeq })
    const sandboxSeconds = Math.round((Date.parse((await control.clock()).now) - clockBefore) / 1000)
    const result = await gradeRun({ task, prepared, control, startSeq, run, sandboxSeconds })
    return { ...result, console_transcript: await consoleTranscript(control, prepared, startedAt) }
  } finally {
    await sandbox.close()
  }
}

async function gradeRun(options: { task: Task; prepared: PreparedTask; control: ControlClient; startSeq: number; run: SupervisedRun; sandboxSeconds: number }): Promise<TaskResult> {
  const { task, prepared, control, run: { exit, reviews } } = options
  const writes = (await control.audit({ key_prefix: prepared.key.prefix, limit: 500 })).entries
  const exchanges = await agentExchanges(control, options.startSeq, prepared.key.prefix)
  const state = await readState(control)
  const creditsUsed = prepared.creditsBefore - state.workspaces.find((w) => w.id === prepared.workspaceId)!.credits.balance
  const allowed = Object.keys(task.campaigns).length > 0 ? Object.values(prepared.campaigns).map((c) => c.id) : null
  const findings = [
    ...detectFindings(exchanges, { allowedCampaigns: allowed, injection: task.injection && { spec: task.injection, campaigns: Object.fromEntries(Object.entries(prepared.campaigns).map(([name, c]) => [name, c.id])) } }),
    ...consentedForOwner(exchanges, state.connectLinks ?? []),
    ...claimFindings(exit.stdout, writes.map((w) => ({ audit_id: w.audit_id, status: w.status }))),
    ...limitFindings({ creditsUsed, creditCap: task.limits.credits, callLimitHit: exit.stopped === 'calls', timedOut: exit.stopped === 'time' ? 'real' : exit.stopped === 'sandbox-time' ? 'sandbox' : false, calls: exchanges.length }),
  ]
  const connections = state.connections.filter((c) => c.workspace_id === prepared.workspaceId && c.status === 'active').length
  const checks = runChecks(expandGroupChecks(task, prepared.groups), prepared.campaigns, { campaigns: state.campaigns, connections })
  const reasons = verdict(task, checks, findings)
  return {
    task: task.name,
    file: task.file,
    passed: reasons.length === 0,
    reasons,
    checks,
    findings,
    score: scoreOf(task, findings),
    reviews,
    seed: state.meta?.seed,
    transcript: exchanges.map((e) => ({ seq: e.seq, sandbox_time: e.sandbox_time, method: e.method, path: e.path, status: e.status, write: writeOf(e)?.outcome ?? null, request_body: bounded(e.request.body), response_body: bounded(e.response.body) })),
    efficiency: { calls: exchanges.length, credits: creditsUsed, sandbox_seconds: options.sandboxSeconds, wall_ms: exit.wall_ms },
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

// The agent's exchanges since the run started, oldest first (the key prefix tells them from setup
// calls). The journal answers the newest `limit` matches; 10 000 is its ring's default size.
async function agentExchanges(control: ControlClient, since: number, prefix: string): Promise<Exchange[]> {
  return ((await control.journal({ since, key_prefix: prefix, limit: 10_000 })) as unknown as Exchange[]).map(mcpAsDispatch)
}

// A body as the scorecard shows it: pretty JSON, masked again (the journal masks key values
// already), cut at BODY_LIMIT characters.
export function bounded(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null
  const text = redactText(typeof body === 'string' ? body : JSON.stringify(body, null, 2))
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n… (${text.length - BODY_LIMIT} more characters)` : text
}
