import { createSandbox } from '../create-sandbox.js'
import type { Exchange, WriteCall } from './exchange.js'
import { writeOf } from './exchange.js'
import type { Finding } from './findings.js'
import { detectFindings, limitFindings } from './findings.js'
import { claimFindings } from './claims.js'
import type { CheckResult } from './grade.js'
import { runChecks, verdict } from './grade.js'
import type { ReviewAction } from './reviewer.js'
import { reviewPending } from './reviewer.js'
import type { AgentExit } from './agent-process.js'
import { startAgent } from './agent-process.js'
import type { Task } from './task-schema.js'
import { prepareTask, readState } from './world-setup.js'

/** One exchange of the agent, as the scorecard lists it; `write` tells what a write came to. */
export interface TranscriptLine {
  seq: number
  sandbox_time: string
  method: string
  path: string
  status: number
  write: WriteCall['outcome'] | null
}

/** One task's outcome: passed or the reasons, with the evidence and the efficiency numbers. */
export interface TaskResult {
  task: string
  file: string
  /** The trial number (1-based) when the task ran more than once (`--trials`). */
  trial?: number
  passed: boolean
  reasons: string[]
  checks: CheckResult[]
  findings: Finding[]
  reviews: ReviewAction[]
  /** The agent's exchanges in order (the safety transcript); evidence seq numbers point here. */
  transcript: TranscriptLine[]
  efficiency: { calls: number; credits: number; sandbox_seconds: number; wall_ms: number }
  agent: Pick<AgentExit, 'code' | 'signal' | 'stopped' | 'stdout' | 'stderr'>
}

// How often the runner looks at pending reviews and the call count while the agent runs.
const TICK_MS = 50

/**
 * Rehearses one task: a fresh in-process sandbox of the task's world, setup through the control
 * plane, the agent spawned with a pinned key, the simulated reviewer and the call limit enforced
 * while it runs, then graded from the journal, the audit and the state (never the agent's claims).
 */
export async function rehearseTask(task: Task, options: { agent: string; cwd?: string }): Promise<TaskResult> {
  const sandbox = await createSandbox({ world: task.world })
  try {
    const { control } = sandbox
    const prepared = await prepareTask(task, control, sandbox.apiUrl)
    const startSeq = await control.journalLastSeq()
    const clockBefore = Date.parse((await control.clock()).now)
    const agent = startAgent({
      command: options.agent,
      cwd: options.cwd,
      goal: prepared.goal,
      seconds: task.limits.seconds,
      env: {
        SERVICE_API_KEY: prepared.key.value,
        SERVICE_BASE_URL: sandbox.baseUrl,
        SERVICE_API_URL: sandbox.apiUrl,
        SERVICE_MCP_URL: `${sandbox.baseUrl}/mcp`,
        REHEARSAL_GOAL: prepared.goal,
        REHEARSAL_TASK: task.name,
      },
    })
    const reviews: ReviewAction[] = []
    const seen = new Set<string>()
    let exit: AgentExit | null = null
    void agent.done.then((e) => { exit = e })
    try {
      while (!exit) {
        reviews.push(...(await reviewPending({ control, workspaceId: prepared.workspaceId, policy: task.reviewer, seen })))
        // Asking for one more than the limit is enough to know it was passed.
        const seenCalls = await control.journal({ since: startSeq, key_prefix: prepared.key.prefix, limit: task.limits.calls + 1 })
        if (seenCalls.length > task.limits.calls) agent.stop('calls')
        await new Promise((r) => setTimeout(r, TICK_MS))
      }
    } catch (error) {
      // The runner failed (not the agent): never leave the agent running against a closed sandbox.
      agent.stop('error')
      throw error
    }
    const ended = exit as AgentExit
    // A held write the agent left behind is still answered, so the end state reflects the policy.
    reviews.push(...(await reviewPending({ control, workspaceId: prepared.workspaceId, policy: task.reviewer, seen })))
    const writes = (await control.audit({ key_prefix: prepared.key.prefix, limit: 500 })).entries
    const exchanges = await agentExchanges(control, startSeq, prepared.key.prefix)
    const state = await readState(control)
    const creditsUsed = prepared.creditsBefore - state.workspaces.find((w) => w.id === prepared.workspaceId)!.credits.balance
    const allowed = Object.keys(task.campaigns).length > 0 ? Object.values(prepared.campaigns).map((c) => c.id) : null
    const findings = [
      ...detectFindings(exchanges, { allowedCampaigns: allowed }),
      ...claimFindings(ended.stdout, writes.map((w) => ({ audit_id: w.audit_id, status: w.status }))),
      ...limitFindings({ creditsUsed, creditCap: task.limits.credits, callLimitHit: ended.stopped === 'calls', timedOut: ended.stopped === 'time', calls: exchanges.length }),
    ]
    const checks = runChecks(task, prepared.campaigns, state.campaigns)
    const reasons = verdict(task, checks, findings)
    const sandboxSeconds = Math.round((Date.parse((await control.clock()).now) - clockBefore) / 1000)
    return {
      task: task.name,
      file: task.file,
      passed: reasons.length === 0,
      reasons,
      checks,
      findings,
      reviews,
      transcript: exchanges.map((e) => ({ seq: e.seq, sandbox_time: e.sandbox_time, method: e.method, path: e.path, status: e.status, write: writeOf(e)?.outcome ?? null })),
      efficiency: { calls: exchanges.length, credits: creditsUsed, sandbox_seconds: sandboxSeconds, wall_ms: ended.wall_ms },
      agent: { code: ended.code, signal: ended.signal, stopped: ended.stopped, stdout: ended.stdout, stderr: ended.stderr },
    }
  } finally {
    await sandbox.close()
  }
}

// The agent's exchanges since the run started, oldest first (the key prefix tells them from setup
// calls). The journal answers the newest `limit` matches; 10 000 is its ring's default size.
async function agentExchanges(control: Awaited<ReturnType<typeof createSandbox>>['control'], since: number, prefix: string): Promise<Exchange[]> {
  return (await control.journal({ since, key_prefix: prefix, limit: 10_000 })) as unknown as Exchange[]
}
