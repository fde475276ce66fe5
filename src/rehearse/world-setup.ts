import type { ControlClient } from '../client/control-client.js'
import type { Task } from './task-schema.js'

/** The agent's key scopes: what the default world's `agent` key holds (no key management, no approvals). */
export const AGENT_SCOPES = ['reporting:read', 'campaigns:read', 'campaigns:write', 'budget:write', 'creative:write', 'audiences:write', 'connections:read', 'connections:write', 'tools:read']

export interface CampaignState {
  id: string
  workspace_id: string
  campaign_name: string
  status: string
  daily_budget: number
}

interface SandboxState {
  workspaces: Array<{ id: string; owner_user_id: string; credits: { balance: number } }>
  campaigns: CampaignState[]
}

/** The sandbox state document (GET /_sandbox/state), reduced to what grading reads. */
export function readState(control: ControlClient): Promise<SandboxState> {
  return control.request<SandboxState>('GET', '/state')
}

/** A prepared task: the workspace, the campaigns it names (resolved to ids) and the agent's key. */
export interface PreparedTask {
  workspaceId: string
  campaigns: Record<string, CampaignState>
  key: { value: string; prefix: string }
  creditsBefore: number
  goal: string
}

/**
 * Applies a task's setup through the control plane (policy, credits, rate limits), resolves its
 * campaign selectors against the world and mints the agent's key, pinned to the workspace.
 */
export async function prepareTask(task: Task, control: ControlClient, apiUrl: string): Promise<PreparedTask> {
  const state = await readState(control)
  const workspace = task.workspace ? state.workspaces.find((w) => w.id === task.workspace) : state.workspaces[0]
  if (!workspace) throw new Error(`${task.file}: workspace ${task.workspace} is not in world ${task.world}`)
  const own = state.campaigns.filter((c) => c.workspace_id === workspace.id)
  const campaigns: Record<string, CampaignState> = {}
  for (const [name, selector] of Object.entries(task.campaigns)) {
    const found = 'worst' in selector ? await worstByCpa(own, apiUrl, control) : own.find((c) => ('id' in selector ? c.id === selector.id : c.campaign_name === selector.name))
    if (!found) throw new Error(`${task.file}: campaign \`${name}\` (${JSON.stringify(selector)}) is not in workspace ${workspace.id}`)
    campaigns[name] = found
  }
  if (task.setup.policy) await control.setPolicy(workspace.id, task.setup.policy)
  if (task.setup.credits) await control.setCredits(workspace.id, task.setup.credits)
  if (task.setup.rate_limits) await control.setRateLimits(workspace.id, task.setup.rate_limits)
  for (const fault of task.setup.faults) await control.addFault(fault)
  if (task.setup.clock) await control.setClock(task.setup.clock)
  const minted = await control.mintKey({ user_id: workspace.owner_user_id, workspace_id: workspace.id, scopes: AGENT_SCOPES, name: `rehearsal ${task.name}` })
  const creditsBefore = (await readState(control)).workspaces.find((w) => w.id === workspace.id)!.credits.balance
  return { workspaceId: workspace.id, campaigns, key: { value: minted.key, prefix: minted.prefix }, creditsBefore, goal: fillGoal(task.goal, campaigns) }
}

/** `{target.id}`, `{target.name}`, `{target.daily_budget}` in a goal, from the resolved campaigns. */
export function fillGoal(goal: string, campaigns: Record<string, CampaignState>): string {
  return goal.replace(/\{([a-z][a-z0-9_]*)\.(id|name|daily_budget)\}/g, (whole, name: string, field: string) => {
    const c = campaigns[name]
    if (!c) return whole
    return String(field === 'id' ? c.id : field === 'name' ? c.campaign_name : c.daily_budget)
  })
}

// The enabled campaign with the highest cost per conversion, read with a throwaway owner key so the
// agent's journal and credits stay untouched by grading.
async function worstByCpa(own: CampaignState[], apiUrl: string, control: ControlClient): Promise<CampaignState | undefined> {
  const ws = own[0]?.workspace_id
  if (!ws) return undefined
  const state = await readState(control)
  const owner = state.workspaces.find((w) => w.id === ws)!.owner_user_id
  const key = await control.mintKey({ user_id: owner, workspace_id: ws, scopes: ['campaigns:read', 'reporting:read'], name: 'rehearsal grader' })
  const res = await fetch(`${apiUrl}/v1/campaigns?status=ENABLED`, { headers: { authorization: `Bearer ${key.key}` } })
  const body = (await res.json()) as { campaigns?: Array<{ campaign_id: string; cpa: number; conversions: number; status: string }> }
  const ranked = (body.campaigns ?? []).filter((c) => c.status === 'ENABLED' && c.conversions > 0).sort((a, b) => b.cpa - a.cpa)
  return own.find((c) => c.id === ranked[0]?.campaign_id)
}
