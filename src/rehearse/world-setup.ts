import type { ControlClient } from '../client/control-client.js'
import type { Task } from './task-schema.js'
import type { CampaignRow } from './selectors.js'
import { fillGoal, isGroup, selectCampaigns } from './selectors.js'
import { plantInjection } from './injection.js'

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
  meta?: { world: string; seed: number }
  workspaces: Array<{ id: string; owner_user_id: string; credits: { balance: number } }>
  campaigns: CampaignState[]
  connections: Array<{ id: string; workspace_id: string; status: string }>
  connectLinks?: Array<{ id: string; workspace_id: string; used_at: string | null; connection_id: string | null }>
}

/** The sandbox state document (GET /_sandbox/state), reduced to what grading reads. */
export function readState(control: ControlClient): Promise<SandboxState> {
  return control.request<SandboxState>('GET', '/state')
}

/** A prepared task: the workspace, the campaigns it names (resolved to ids) and the agent's key. */
export interface PreparedTask {
  workspaceId: string
  /** The task's campaigns as they were when the agent started (relative checks compare with these); a group's members as `name.1`, `name.2`… */
  campaigns: Record<string, CampaignState>
  /** Groups (`pick: all`): the group's name → its members' keys in `campaigns`. */
  groups: Record<string, string[]>
  key: { value: string; prefix: string }
  creditsBefore: number
  goal: string
}

/**
 * Applies a task's setup through the control plane (planted instructions, policy, credits, rate
 * limits, faults, clock), resolves its campaign selectors against the world's starting state and
 * metrics, and mints the agent's key, pinned to the workspace.
 */
export async function prepareTask(task: Task, control: ControlClient, urls: { base: string; api: string }): Promise<PreparedTask> {
  const state = await readState(control)
  const workspace = task.workspace ? state.workspaces.find((w) => w.id === task.workspace) : state.workspaces[0]
  if (!workspace) throw new Error(`${task.file}: workspace ${task.workspace} is not in world ${task.world}`)
  // The clock first: metrics depend on sandbox time, so selectors must rank what the agent will see.
  if (task.setup.clock) await control.setClock(task.setup.clock)
  const own = state.campaigns.filter((c) => c.workspace_id === workspace.id)
  // Grading reads go through a separate read-only key, so the agent's journal and credits stay untouched.
  const reader = await control.mintKey({ user_id: workspace.owner_user_id, workspace_id: workspace.id, scopes: ['campaigns:read', 'reporting:read'], name: 'rehearsal grader' })
  const rows = Object.keys(task.campaigns).length > 0 ? await campaignRows(urls.api, reader.key) : []
  const names = new Map(own.map((c) => [c.id, c.campaign_name]))
  const campaigns: Record<string, CampaignState> = {}
  const groups: Record<string, string[]> = {}
  for (const [name, selector] of Object.entries(task.campaigns)) {
    const picked = selectCampaigns(selector, rows.filter((r) => names.has(r.campaign_id)), names).map((row) => own.find((c) => c.id === row.campaign_id)!)
    if (isGroup(selector) && picked.length > 0) {
      groups[name] = picked.map((c, i) => `${name}.${i + 1}`)
      picked.forEach((c, i) => { campaigns[`${name}.${i + 1}`] = c })
      continue
    }
    const found = picked[0]
    if (!found) throw new Error(`${task.file}: no campaign matches \`${name}\` (${JSON.stringify(selector)}) in workspace ${workspace.id} (world ${task.world}, seed ${state.meta?.seed ?? '?'})`)
    campaigns[name] = found
  }
  if (task.injection) await plantInjection(task.injection, { control, workspaceId: workspace.id, campaigns, groups })
  if (task.setup.policy) await control.setPolicy(workspace.id, task.setup.policy)
  if (task.setup.credits) await control.setCredits(workspace.id, task.setup.credits)
  if (task.setup.rate_limits) await control.setRateLimits(workspace.id, task.setup.rate_limits)
  for (const fault of task.setup.faults) await control.addFault(fault)
  const minted = await control.mintKey({ user_id: workspace.owner_user_id, workspace_id: workspace.id, scopes: AGENT_SCOPES, name: `rehearsal ${task.name}` })
  const creditsBefore = (await readState(control)).workspaces.find((w) => w.id === workspace.id)!.credits.balance
  return { workspaceId: workspace.id, campaigns, groups, key: { value: minted.key, prefix: minted.prefix }, creditsBefore, goal: fillGoal(task.goal, campaigns, groups) }
}

export { fillGoal }

/** The task with each check on a group (`pick: all`) made one check per member (`name.1`, `name.2`…). */
export function expandGroupChecks(task: Task, groups: Record<string, string[]>): Task {
  const checks = task.checks.flatMap((check) => ('campaign' in check && groups[check.campaign] ? groups[check.campaign].map((key) => ({ ...check, campaign: key })) : [check]))
  return { ...task, checks }
}

// Every campaign of the workspace with its metrics (`GET /v1/campaigns`, every status).
async function campaignRows(apiUrl: string, key: string): Promise<CampaignRow[]> {
  const res = await fetch(`${apiUrl}/v1/campaigns`, { headers: { authorization: `Bearer ${key}` } })
  const body = (await res.json()) as { campaigns?: CampaignRow[] }
  if (!res.ok) throw new Error(`could not read the campaigns to resolve the task's selectors (HTTP ${res.status})`)
  return body.campaigns ?? []
}
