import type { ScriptContext, ScriptExecutor } from './types.js'
import { nowIn } from '../workspace-time.js'
import { optional, str } from './types.js'
import { campaignInAccount } from '../account-selection.js'
import type { Campaign, CampaignStatus } from '../model.js'
import { changeBudget, changeStatus, findCampaign } from '../campaigns.js'
import { addDays, dateOf } from '../metrics.js'

// The campaign id names its account; an account selection, when sent, must be that one (issue 35).
function target(ctx: ScriptContext): Campaign {
  const campaign = findCampaign(ctx.deps, ctx.workspace.id, str(ctx, 'campaign_id'))
  return campaignInAccount(ctx.deps, campaign, { account_id: optional(ctx, 'account_id'), account_name: optional(ctx, 'account_name') })
}

/** The fields every campaign write result starts with. */
// A fresh object each call: the scripts add their fields to it with Object.assign (a spread of it
// then new keys takes V8's slow path on Node 20, `support/objects.ts`).
function changed(campaign: Campaign) {
  return { success: true, simulated: true, campaign_id: campaign.id, campaign_name: campaign.campaign_name, platform: 'google' }
}

/** pause / enable / remove: previous and new status (REST-02, GATE-03). */
function statusScript(status: CampaignStatus, verb: string): ScriptExecutor {
  return {
    preflight(ctx) {
      target(ctx)
      return {}
    },
    run(ctx) {
      const before = target(ctx)
      const after = changeStatus(ctx.deps, before, status)
      return {
        before: { status: before.status },
        after: { status: after.status },
        result: Object.assign(changed(after), {
          status: after.status,
          previous_status: before.status,
          message: `Campaign "${after.campaign_name}" ${verb} (was ${before.status}).`,
        }),
      }
    },
  }
}

/** `update_campaign_budget` (DISP-06): previous and new daily budget, effective from the next day. */
const updateBudget: ScriptExecutor = {
  preflight(ctx) {
    const campaign = target(ctx)
    const proposed = ctx.call.values.daily_budget as number
    return { budget: { campaign_id: campaign.id, current: campaign.daily_budget, proposed, currency: campaign.currency } }
  },
  run(ctx) {
    const before = target(ctx)
    const after = changeBudget(ctx.deps, before, ctx.call.values.daily_budget as number)
    const effective_from = addDays(dateOf(nowIn(ctx.deps, ctx.workspace.id)), 1)
    return {
      before: { daily_budget: before.daily_budget },
      after: { daily_budget: after.daily_budget },
      result: Object.assign(changed(after), {
        daily_budget: { previous: before.daily_budget, current: after.daily_budget, currency: after.currency },
        previous_daily_budget: before.daily_budget,
        new_daily_budget: after.daily_budget,
        effective_from,
        message: `Daily budget updated to ${after.daily_budget.toFixed(2)} ${after.currency} (from ${before.daily_budget.toFixed(2)}), effective ${effective_from}.`,
      }),
    }
  },
}

export const CAMPAIGN_STATE_EXECUTORS: Record<string, ScriptExecutor> = {
  pause_campaign: statusScript('PAUSED', 'paused'),
  google_ads_pause_campaign: statusScript('PAUSED', 'paused'),
  enable_campaign: statusScript('ENABLED', 'enabled'),
  remove_campaign: statusScript('REMOVED', 'removed'),
  update_campaign_budget: updateBudget,
}
