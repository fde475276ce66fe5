import type { Campaign, CampaignStatus } from './model.js'
import type { SnapshotEntry } from './catalog-snapshot.js'
import type { Preflight, RunResult, ScriptContext } from './scripts/types.js'
import { changeBudget, changeStatus } from './campaigns.js'
import { hashSeed } from './seeded.js'

type Args = Record<string, unknown>

const STATUS_OF: Partial<Record<string, CampaignStatus>> = { pause: 'PAUSED', enable: 'ENABLED', remove: 'REMOVED' }

/**
 * Simulated writes (issue 35 item 4). They reach here only after the safety gate ran them (or a
 * reviewer approved them). Where the family is modelled, the world changes: a pause, enable,
 * remove or budget tool whose `campaign_id` names one of the workspace's campaigns changes that
 * campaign exactly as the sandbox's own scripts do (same 409s, same histories). Everything else is
 * acknowledged with `simulated: true` and changes nothing.
 */
export const simulatedWrite = {
  preflight(ctx: ScriptContext): Preflight {
    const target = targetOf(ctx)
    const proposed = budgetOf(ctx.call.values as Args)
    if (target && ctx.call.entry.operation === 'budget' && proposed !== null) {
      return { budget: { campaign_id: target.id, current: target.daily_budget, proposed, currency: target.currency } }
    }
    return {}
  },
  run(ctx: ScriptContext): RunResult {
    const entry = ctx.call.entry as SnapshotEntry
    const args = ctx.call.values as Args
    const head = { success: true, simulated: true, tool: entry.name, operation: entry.operation, platform: ctx.call.platform || null }
    const target = targetOf(ctx)
    const status = STATUS_OF[entry.operation]
    if (target && status) {
      const after = changeStatus(ctx.deps, target, status)
      return { before: { status: target.status }, after: { status: after.status }, result: { ...head, campaign_id: after.id, status: after.status, previous_status: target.status, world_changed: true } }
    }
    const proposed = budgetOf(args)
    if (target && entry.operation === 'budget' && proposed !== null) {
      const after = changeBudget(ctx.deps, target, proposed)
      return {
        before: { daily_budget: target.daily_budget }, after: { daily_budget: after.daily_budget },
        result: { ...head, campaign_id: after.id, daily_budget: { previous: target.daily_budget, current: after.daily_budget, currency: after.currency }, world_changed: true },
      }
    }
    // Nothing modelled to change: an acknowledgement, with a stable id for what a create would make.
    const id = `sim_${hashSeed(ctx.workspace.id, entry.name, JSON.stringify(args)).toString(36)}`
    return { result: { ...head, status: 'accepted', ...(entry.operation === 'create' ? { created_id: id } : { request_id: id }), world_changed: false } }
  },
}

/** The workspace campaign a write names by `campaign_id`, if it is one the world holds. */
function targetOf(ctx: ScriptContext): Campaign | undefined {
  const id = (ctx.call.values as Args).campaign_id
  if (typeof id !== 'string') return undefined
  const campaign = ctx.deps.store.campaigns.get(id)
  return campaign && campaign.workspace_id === ctx.workspace.id ? campaign : undefined
}

function budgetOf(args: Args): number | null {
  for (const key of ['daily_budget', 'budget', 'amount']) if (typeof args[key] === 'number') return args[key] as number
  return null
}
