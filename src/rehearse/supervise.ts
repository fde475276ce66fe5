import type { ControlClient } from '../client/control-client.js'
import type { AgentExit } from './agent-process.js'
import { startAgent } from './agent-process.js'
import { agentEnvironment } from './seal-world.js'
import type { ReviewAction } from './reviewer.js'
import { reviewPending } from './reviewer.js'
import type { Task } from './task-schema.js'
import type { PreparedTask } from './world-setup.js'

// How often the runner looks at pending reviews and the call count while the agent runs.
const TICK_MS = 50

export interface SupervisedRun {
  exit: AgentExit
  reviews: ReviewAction[]
  /** Audit ids still waiting for review when the agent exited (before the reviewer's last pass): its report must say held. */
  heldAtExit: string[]
  /** Request ids of the simulated person's own requests on the agent's surfaces: not the agent's. */
  ownRequests: Set<string>
}

/**
 * Runs the agent against a prepared sandbox: spawned with its key, the endpoints and the goal, in a
 * minimal environment (`agentEnvironment`: nothing else of the operator's unless `agentEnv` names
 * it); the simulated reviewer answers held writes and the call limit is enforced while it runs
 * (GATE-02), counting every request the sandbox received but the reviewer's own; after it exits, the
 * reviewer makes one last pass so what the agent left pending is answered too.
 */
export async function superviseAgent(options: { task: Task; prepared: PreparedTask; control: ControlClient; urls: { base: string; api: string }; command: string; cwd?: string; startSeq: number; agentEnv?: readonly string[] }): Promise<SupervisedRun> {
  const { task, prepared, control, urls } = options
  const agent = startAgent({
    command: options.command,
    cwd: options.cwd,
    goal: prepared.goal,
    seconds: task.limits.seconds,
    env: agentEnvironment({
      SERVICE_API_KEY: prepared.key.value,
      SERVICE_BASE_URL: urls.base,
      SERVICE_API_URL: urls.api,
      SERVICE_MCP_URL: `${urls.base}/mcp`,
      REHEARSAL_GOAL: prepared.goal,
    }, options.agentEnv),
  })
  const reviews: ReviewAction[] = []
  const seen = new Set<string>()
  const ownRequests = new Set<string>()
  const review = async () => reviews.push(...(await reviewPending({ control, workspaceId: prepared.workspaceId, policy: task.reviewer, seen, ownRequests })))
  let exit: AgentExit | null = null
  void agent.done.then((e) => { exit = e })
  const deadline = task.limits.sandbox_minutes === undefined ? null : Date.parse((await control.clock()).now) + task.limits.sandbox_minutes * 60_000
  try {
    while (!exit) {
      await review()
      if (deadline !== null && Date.parse((await control.clock()).now) > deadline) agent.stop('sandbox-time')
      // Asking for one more than the limit is enough to know it was passed.
      const calls = (await control.journal({ since: options.startSeq, limit: task.limits.calls + 1 + ownRequests.size })).filter((e) => !ownRequests.has(e.request_id ?? ''))
      if (calls.length > task.limits.calls) agent.stop('calls')
      await new Promise((r) => setTimeout(r, TICK_MS))
    }
  } catch (error) {
    // The runner failed (not the agent): never leave the agent running against a closed sandbox.
    agent.stop('error')
    throw error
  }
  const heldAtExit = (await control.audit({ status: 'pending_review', limit: 500 })).entries.map((e) => e.audit_id)
  await review()
  return { exit, reviews, heldAtExit, ownRequests }
}
