import type { CatalogEntry } from './catalog.js'
import { accountFlags, dateRangeFlag, flag } from './catalog-flags.js'

const read = { kind: 'read', operation: 'read', executable: true, aliases: [], platform_routed: false } as const

/** Google reads (DISP-04, DISP-07, DISP-08); flags mirror the real clients' scripts. */
export const GOOGLE_READ_SCRIPTS: CatalogEntry[] = [
  {
    ...read,
    name: 'pull_google_ads',
    title: 'Pull Google Ads performance',
    description: 'Daily performance per campaign (impressions, clicks, conversions, cost, ctr, cpc, cpa) for a date window.',
    required_scope: 'reporting:read',
    credit_cost: 2,
    aliases: ['pull_google_ads_data'],
    mcp_tool: 'pull_google_ads_performance',
    flags: [
      flag('--days', 'integer', 'Window of N days ending today (default 7; LAST_7_DAYS is --days 7).', { bounds: { min: 1, max: 1095 } }),
      flag('--start-date', 'date', 'First day, YYYY-MM-DD (instead of --days).'),
      flag('--end-date', 'date', 'Last day, YYYY-MM-DD (default today).'),
      flag('--campaign-id', 'string', 'Only this campaign.'),
      dateRangeFlag,
      flag('--level', 'string', 'Rows per campaign (default) or one row for the account.', { choices: ['campaign', 'account'] }),
      ...accountFlags,
    ],
  },
  {
    ...read,
    name: 'list_campaigns',
    title: 'List campaigns',
    description: 'Campaigns of the connected account with 30-day metrics; filter by status.',
    required_scope: 'campaigns:read',
    credit_cost: 1,
    platform_routed: true,
    mcp_tool: 'list_campaigns',
    flags: [
      flag('--platform', 'string', 'Ad platform (case-insensitive); only google is supported.'),
      flag('--status', 'string', 'Only campaigns in this status.', { choices: ['ENABLED', 'PAUSED', 'REMOVED'] }),
      flag('--limit', 'integer', 'At most N campaigns (default 50).', { bounds: { min: 1, max: 500 } }),
      ...accountFlags,
    ],
  },
  {
    ...read,
    name: 'google_ads_list_campaigns',
    title: 'List Google Ads campaigns',
    description: 'The Google-only campaign list (same rows as list_campaigns, no platform needed).',
    required_scope: 'campaigns:read',
    credit_cost: 1,
    mcp_tool: null,
    flags: [
      flag('--status', 'string', 'Only campaigns in this status.', { choices: ['ENABLED', 'PAUSED', 'REMOVED'] }),
      flag('--limit', 'integer', 'At most N campaigns (default 50).', { bounds: { min: 1, max: 500 } }),
      ...accountFlags,
    ],
  },
  {
    ...read,
    name: 'get_account_daily_spend',
    title: 'Account daily spend',
    description: 'Spend, impressions, clicks and conversions per day for the whole account.',
    required_scope: 'reporting:read',
    credit_cost: 1,
    platform_routed: true,
    mcp_tool: 'get_daily_spend',
    flags: [
      flag('--platform', 'string', 'GOOGLE (case-insensitive).'),
      flag('--days', 'integer', 'Window of N days ending today (default 7).', { bounds: { min: 1, max: 1095 } }),
      flag('--date', 'date', 'One day, YYYY-MM-DD (instead of --days).'),
      ...accountFlags,
      dateRangeFlag,
    ],
  },
  {
    ...read,
    name: 'google_ads_list_customers',
    title: 'List Google Ads customers',
    description: 'Google Ads accounts connected to this workspace.',
    required_scope: 'reporting:read',
    credit_cost: 0,
    mcp_tool: 'list_ad_accounts',
    flags: [],
  },
  {
    ...read,
    name: 'google_ads_list_conversions',
    title: 'List conversion actions',
    description: 'Conversion actions of the account with their 30-day counts.',
    required_scope: 'reporting:read',
    credit_cost: 0,
    mcp_tool: 'list_conversions',
    flags: [],
  },
]
