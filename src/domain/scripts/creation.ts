import type { ScriptContext, ScriptExecutor } from './types.js'
import { optional, str } from './types.js'
import { createCampaign, googleConnection } from '../campaigns.js'

/** Campaign creation scripts: the campaign is created PAUSED, as the real platform does. */
function createScript(channel_type: string, bidding: (ctx: ScriptContext) => string): ScriptExecutor {
  return {
    // The new campaign's budget is gated like a budget change from nothing (GATE-02 sandbox decision).
    preflight(ctx) {
      const { currency } = googleConnection(ctx.deps, ctx.workspace.id)
      return { budget: { campaign_id: null, current: 0, proposed: ctx.call.values.daily_budget as number, currency } }
    },
    run(ctx) {
      const connection = googleConnection(ctx.deps, ctx.workspace.id)
      const campaign = createCampaign(ctx.deps, {
        connection, name: str(ctx, 'campaign_name'), channel_type, daily_budget: ctx.call.values.daily_budget as number, bidding_strategy: bidding(ctx),
      })
      const headlines = optional<string[]>(ctx, 'headline') ?? []
      const descriptions = optional<string[]>(ctx, 'description') ?? []
      const after = { campaign_id: campaign.id, status: campaign.status, daily_budget: campaign.daily_budget, channel_type }
      return {
        before: null,
        after,
        result: {
          success: true,
          simulated: true,
          campaign_id: campaign.id,
          campaign_name: campaign.campaign_name,
          channel_type,
          status: campaign.status,
          daily_budget: campaign.daily_budget,
          currency: campaign.currency,
          bidding_strategy: campaign.bidding_strategy,
          headlines_submitted: headlines.length,
          descriptions_submitted: descriptions.length,
          keywords_submitted: (optional<string[]>(ctx, 'keyword') ?? []).length,
          geo_targets: optional<string[]>(ctx, 'geo_targets') ?? [],
          resource_name: `customers/${connection.account_id.replace(/-/g, '')}/campaigns/${campaign.id}`,
          message: `Campaign "${campaign.campaign_name}" created PAUSED; enable it to start serving.`,
        },
      }
    },
  }
}

export const CREATION_EXECUTORS: Record<string, ScriptExecutor> = {
  google_ads_create_search_campaign: createScript('SEARCH', () => 'MAXIMIZE_CONVERSIONS'),
  google_ads_create_display_campaign: createScript('DISPLAY', () => 'MAXIMIZE_CONVERSIONS'),
  google_ads_create_pmax_campaign: createScript('PERFORMANCE_MAX', (ctx) => (ctx.call.values.target_cpa === undefined ? 'MAXIMIZE_CONVERSIONS' : 'TARGET_CPA')),
}
