import type { CatalogEntry } from './catalog.js'
import {
  accountFlags, campaignIdFlag, dailyBudgetFlag, descriptionFlag, flag, geoTargetsFlag, headlineFlag,
} from './catalog-flags.js'

const write = { kind: 'write', executable: true, aliases: [], platform_routed: false, mcp_tool: null } as const
const campaignName = flag('--campaign-name', 'string', 'Campaign name.', { required: true, bounds: { max_length: 255 } })
const finalUrl = flag('--final-url', 'url', 'Landing page URL (http or https).', { required: true })

/** Google writes: campaign state, budget, creation, keywords, conversions, assets, audiences (GATE-03 classes). */
export const GOOGLE_WRITE_SCRIPTS: CatalogEntry[] = [
  {
    ...write, name: 'pause_campaign', resource: 'campaign', title: 'Pause a campaign', operation: 'pause', required_scope: 'campaigns:write',
    description: 'Pauses an enabled campaign; metrics stop accruing. Pausing a paused campaign is 409 ALREADY_PAUSED.',
    credit_cost: 2, platform_routed: true, mcp_tool: 'pause_campaign',
    flags: [campaignIdFlag, flag('--action', 'string', 'Always pause.', { choices: ['pause'] }), ...accountFlags],
  },
  {
    ...write, name: 'google_ads_pause_campaign', resource: 'campaign', title: 'Pause a Google Ads campaign', operation: 'pause',
    required_scope: 'campaigns:write', description: 'The Google-only pause script (`--action pause`).', credit_cost: 2,
    flags: [campaignIdFlag, flag('--action', 'string', 'Always pause.', { choices: ['pause'], required: true }), ...accountFlags],
  },
  {
    ...write, name: 'enable_campaign', resource: 'campaign', title: 'Enable a campaign', operation: 'enable', required_scope: 'campaigns:write',
    description: 'Enables (resumes) a paused campaign. A launch: needs a payment method; held by the default policy.',
    credit_cost: 2, platform_routed: true, mcp_tool: 'enable_campaign', flags: [campaignIdFlag, ...accountFlags],
  },
  {
    ...write, name: 'remove_campaign', resource: 'campaign', title: 'Remove a campaign', operation: 'remove', required_scope: 'campaigns:write',
    description: 'Removes a campaign for good (status REMOVED). Held by the default policy.',
    credit_cost: 2, platform_routed: true, mcp_tool: 'remove_campaign', flags: [campaignIdFlag, ...accountFlags],
  },
  {
    ...write, name: 'update_campaign_budget', resource: 'campaign', title: 'Update a daily budget', operation: 'budget', required_scope: 'budget:write',
    description: 'Sets the daily budget (account currency) from the next simulated day. `--budget` is not a flag: use `--daily-budget`.',
    credit_cost: 5, platform_routed: true, mcp_tool: 'update_campaign_budget', flags: [campaignIdFlag, dailyBudgetFlag, ...accountFlags],
  },
  {
    ...write, name: 'google_ads_create_search_campaign', resource: 'campaign', title: 'Create a Search campaign', operation: 'create',
    required_scope: 'campaigns:write', credit_cost: 20, mcp_tool: 'create_search_campaign',
    description: 'Creates a Search campaign (created PAUSED) with responsive search ad text and keywords. A launch.',
    flags: [campaignName, dailyBudgetFlag, finalUrl,
      flag('--keyword', 'string', 'A keyword; repeat the flag.', { repeatable: true, bounds: { max_length: 80, max_count: 200 } }),
      headlineFlag(3, 15), descriptionFlag(2, 4), geoTargetsFlag],
  },
  {
    ...write, name: 'google_ads_create_display_campaign', resource: 'campaign', title: 'Create a Display campaign', operation: 'create',
    required_scope: 'campaigns:write', credit_cost: 20, mcp_tool: null,
    description: 'Creates a Display campaign (created PAUSED) with a responsive display ad. A launch.',
    flags: [campaignName, dailyBudgetFlag,
      flag('--business-name', 'string', 'Advertiser name shown in the ad.', { required: true, bounds: { max_length: 25 } }),
      finalUrl,
      flag('--landscape-image', 'url', 'Landscape image (1.91:1) URL.', { required: true }),
      flag('--square-image', 'url', 'Square image (1:1) URL.', { required: true }),
      headlineFlag(1, 5), descriptionFlag(1, 5), geoTargetsFlag],
  },
  {
    ...write, name: 'google_ads_create_pmax_campaign', resource: 'campaign', title: 'Create a Performance Max campaign', operation: 'create',
    required_scope: 'campaigns:write', credit_cost: 25, mcp_tool: null,
    description: 'Creates a Performance Max campaign (created PAUSED). Image flags end in -url here, unlike Display. A launch.',
    flags: [campaignName, dailyBudgetFlag,
      flag('--business-name', 'string', 'Advertiser name.', { required: true, bounds: { max_length: 25 } }),
      finalUrl,
      flag('--long-headline', 'string', 'Long headline, at most 90 characters.', { required: true, bounds: { max_length: 90 } }),
      flag('--landscape-image-url', 'url', 'Landscape image URL.', { required: true }),
      flag('--square-image-url', 'url', 'Square image URL.', { required: true }),
      flag('--logo-url', 'url', 'Logo URL.', { required: true }),
      flag('--target-cpa', 'number', 'Target cost per acquisition.', { bounds: { min: 0.01, max: 10_000 } }),
      headlineFlag(3, 5), descriptionFlag(2, 5), geoTargetsFlag],
  },
  {
    ...write, name: 'google_ads_add_keywords', resource: 'keyword', title: 'Add keywords', operation: 'creative', required_scope: 'creative:write',
    description: 'Adds keywords to an ad group (sent to the platform; held by the default policy).', credit_cost: 3, mcp_tool: 'add_keywords',
    flags: [flag('--ad-group-id', 'string', 'Ad group id.', { required: true }),
      flag('--keyword', 'string', 'A keyword; repeat the flag.', { required: true, repeatable: true, bounds: { max_length: 80, min_count: 1, max_count: 200 } }),
      flag('--match-type', 'string', 'Match type (default BROAD).', { choices: ['EXACT', 'PHRASE', 'BROAD'] })],
  },
  {
    ...write, name: 'google_ads_add_negative_keywords', resource: 'negative_keyword', title: 'Add negative keywords', operation: 'creative',
    required_scope: 'creative:write', credit_cost: 3, mcp_tool: 'add_negative_keywords',
    description: 'Adds campaign-level negative keywords, given as ONE comma-separated list (no --keyword, no --level).',
    flags: [campaignIdFlag, flag('--keywords', 'list', 'Comma-separated keywords, e.g. free,cheap.', { required: true, bounds: { max_count: 200 } })],
  },
  {
    ...write, name: 'google_ads_create_conversion', resource: 'conversion_action', title: 'Create a conversion action', operation: 'create',
    required_scope: 'campaigns:write', credit_cost: 5, mcp_tool: 'create_conversion',
    description: 'Creates a conversion action (counts as a launch: needs a payment method; held by the default policy).',
    flags: [flag('--name', 'string', 'Conversion action name.', { required: true, bounds: { max_length: 100 } }),
      flag('--value', 'number', 'Default value per conversion.', { bounds: { min: 0, max: 1_000_000 } }),
      flag('--category', 'string', 'Category.', { required: true, choices: ['PURCHASE', 'SIGNUP', 'LEAD', 'PAGE_VIEW', 'ADD_TO_CART', 'CONTACT', 'OTHER'] })],
  },
  {
    ...write, name: 'google_ads_upload_image_asset', resource: 'image_asset', title: 'Upload an image asset', operation: 'creative',
    required_scope: 'creative:write', credit_cost: 3, mcp_tool: 'upload_image',
    description: 'Uploads an image from a URL as an account asset.',
    flags: [flag('--image-url', 'url', 'Image URL.', { required: true }),
      flag('--asset-name', 'string', 'Asset name.', { required: true, bounds: { max_length: 100 } })],
  },
  {
    ...write, name: 'google_ads_create_customer_match', resource: 'customer_match_list', title: 'Create a Customer Match audience', operation: 'audience',
    required_scope: 'audiences:write', credit_cost: 10, mcp_tool: 'sync_audience',
    description: 'Creates a Customer Match list from a staged audience artifact (POST {api_url}/artifacts/audience-sync-input) or inline SHA-256 hashes.',
    flags: [flag('--name', 'string', 'Audience name.', { required: true, bounds: { max_length: 100 } }),
      flag('--account-id', 'string', 'Google Ads customer id.'),
      flag('--hashed-emails', 'list', 'Comma-separated SHA-256 hex of normalised e-mails.'),
      flag('--hashed-emails-artifact-id', 'string', 'Artifact id of staged hashed e-mails.'),
      flag('--hashed-phones', 'list', 'Comma-separated SHA-256 hex of E.164 phone numbers.'),
      flag('--hashed-phones-artifact-id', 'string', 'Artifact id of staged hashed phones.'),
      flag('--membership-lifespan', 'integer', 'Days a member stays (default 540).', { bounds: { min: 1, max: 540 } })],
  },
]
