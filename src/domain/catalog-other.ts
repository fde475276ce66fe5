import type { CatalogEntry } from './catalog.js'
import { flag } from './catalog-flags.js'

const notDispatchable = { executable: false, aliases: [], platform_routed: false, flags: [] } as const

/**
 * Names that are in the catalog but not dispatchable (DISP-04, DISP-09): tools served by their own
 * endpoints, and MCP tool names that are not script names. Dispatching one is 400 UNKNOWN_SCRIPT
 * with a hint naming `use_instead`.
 */
export const OTHER_ENTRIES: CatalogEntry[] = [
  {
    ...notDispatchable, name: 'list_landing_pages', title: 'List landing pages', kind: 'read', operation: 'read',
    description: 'Landing pages with publish status, URLs, views and conversions. Bypasses the dispatcher.',
    required_scope: 'campaigns:read', credit_cost: 0, mcp_tool: 'list_landing_pages',
    use_instead: 'GET {base_url}/api/v1/landing-pages',
  },
  {
    ...notDispatchable, name: 'stage_audience_artifact', gated: false, title: 'Stage an audience artifact', kind: 'write', operation: 'audience',
    description: 'Stages SHA-256-hashed identifiers for an audience script; expires after ttl_seconds. Bypasses the dispatcher.',
    required_scope: 'audiences:write', credit_cost: 0, mcp_tool: 'stage_audience_artifact',
    use_instead: 'POST {api_url}/artifacts/audience-sync-input (header X-Service-Key)',
    flags: [flag('body', 'list', 'Hashed identifiers.', { required: true }), flag('ttl_seconds', 'integer', 'Lifetime (default 3600).')],
  },
  {
    ...notDispatchable, name: 'pull_google_ads_performance', title: 'Google Ads performance (MCP tool)', kind: 'read', operation: 'read',
    description: 'MCP tool name; over REST dispatch the script pull_google_ads.',
    required_scope: 'reporting:read', credit_cost: 2, mcp_tool: 'pull_google_ads_performance', use_instead: 'pull_google_ads',
  },
  {
    ...notDispatchable, name: 'get_performance', title: 'Performance (MCP tool)', kind: 'read', operation: 'read',
    description: 'MCP tool name; over REST dispatch pull_google_ads with --days.',
    required_scope: 'reporting:read', credit_cost: 2, mcp_tool: 'get_performance', use_instead: 'pull_google_ads',
  },
  {
    ...notDispatchable, name: 'get_daily_spend', title: 'Daily spend (MCP tool)', kind: 'read', operation: 'read',
    description: 'MCP tool name; over REST dispatch get_account_daily_spend.',
    required_scope: 'reporting:read', credit_cost: 1, mcp_tool: 'get_daily_spend', use_instead: 'get_account_daily_spend',
  },
  {
    ...notDispatchable, name: 'list_ad_accounts', title: 'Ad accounts (MCP tool)', kind: 'read', operation: 'read',
    description: 'MCP tool name; over REST dispatch google_ads_list_customers.',
    required_scope: 'reporting:read', credit_cost: 0, mcp_tool: 'list_ad_accounts', use_instead: 'google_ads_list_customers',
  },
  {
    ...notDispatchable, name: 'list_conversions', title: 'Conversions (MCP tool)', kind: 'read', operation: 'read',
    description: 'MCP tool name; over REST dispatch google_ads_list_conversions.',
    required_scope: 'reporting:read', credit_cost: 0, mcp_tool: 'list_conversions', use_instead: 'google_ads_list_conversions',
  },
]
