import type { Result } from '../../src/client/rest-client.js'
import { RestClient } from '../../src/client/rest-client.js'
import { ServiceError } from '../../src/client/errors.js'
import { daysOf } from '../../src/client/flags.js'

/**
 * The reference client with the documented defects of SDK 0.1.1 (spec §4 "SDK behaviour", §9):
 * the pause and budget helpers take a platform but always target `google` (SDK-08), the budget
 * helper sends the rejected `--budget` flag (SDK-08, DISP-05), and the performance helper sends the
 * old alias `pull_google_ads_data` (SDK-07). Everything else behaves as the reference.
 */
export class Sdk011Client extends RestClient {
  override async pause(campaignId: string, _platform: string): Promise<Result> {
    return this.execute('pause_campaign', { campaign_id: campaignId }, 'google')
  }

  override async updateBudget(campaignId: string, dailyBudget: number, _platform: string): Promise<Result> {
    return this.execute('update_campaign_budget', { campaign_id: campaignId, budget: dailyBudget }, 'google')
  }

  override async performance(options: { dateRange: string | number; campaignId?: string }): Promise<Result> {
    const days = daysOf(options.dateRange)
    if (days === null) throw ServiceError.validation(`unknown date range ${JSON.stringify(options.dateRange)}`)
    return this.execute('pull_google_ads_data', { days, campaign_id: options.campaignId })
  }
}
