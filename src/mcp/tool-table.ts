import { z } from 'zod'
import type { ArgsMap } from '../client/flags.js'
import { toFlags } from '../client/flags.js'
import { MAX_ARTIFACT_TTL_S } from '../domain/artifacts.js'
import { calendarDate } from '../domain/dates.js'

/**
 * What an MCP tool asks a backend to do. MCP tool names are not script names (MCP-05): the table
 * below turns each tool's input into one of these, and both backends (hosted in-process, stdio over
 * REST) carry it out the same way.
 */
export type ToolCall =
  | { kind: 'dispatch'; script: string; args: string[]; platform?: string }
  | { kind: 'landing_pages' }
  | { kind: 'stage_artifact'; body: Record<string, unknown> }
  | { kind: 'credits' }
  | { kind: 'connections'; platform?: string }
  /** A loaded catalog's simulated tool (issue 35), with its JSON arguments as validated. */
  | { kind: 'snapshot'; tool: string; arguments: Record<string, unknown> }

/** One MCP tool: name, annotations, zod input shape and its mapping to a `ToolCall`. */
export interface McpTool {
  name: string
  title: string
  description: string
  input: z.ZodRawShape
  readOnly: boolean
  destructive: boolean
  toCall(input: Record<string, unknown>): ToolCall
}

function defineTool<S extends z.ZodRawShape>(tool: Omit<McpTool, 'input' | 'toCall'> & {
  input: S
  toCall(input: z.infer<z.ZodObject<S>>): ToolCall
}): McpTool {
  return tool as unknown as McpTool
}

const platform = z.string().default('google').describe('Ad platform; only `google` is supported by the sandbox.')
const campaignId = z.string().min(1).describe('Campaign id, as listed by list_campaigns.')

function dispatch(script: string, args: ArgsMap, platformName?: string): ToolCall {
  return { kind: 'dispatch', script, args: toFlags(args), ...(platformName ? { platform: platformName } : {}) }
}

/**
 * The MCP tool table (MCP-05). Names follow the hosted service; scripts are the catalog's canonical
 * names, so the same write lands in the same audit through REST and MCP.
 */
export const MCP_TOOLS: readonly McpTool[] = [
  defineTool({
    name: 'pull_google_ads_performance',
    title: 'Google Ads performance',
    description: 'Campaign performance (impressions, clicks, conversions, cost) for the last N days. Runs the script pull_google_ads.',
    input: {
      days: z.number().int().min(1).max(1095).optional().describe('Window in days (default 30).'),
      start_date: calendarDate.optional().describe('YYYY-MM-DD; with end_date instead of days.'),
      end_date: calendarDate.optional().describe('YYYY-MM-DD.'),
      campaign_id: z.string().optional().describe('Only this campaign.'),
    },
    readOnly: true,
    destructive: false,
    toCall: (i) => dispatch('pull_google_ads', { days: i.days, start_date: i.start_date, end_date: i.end_date, campaign_id: i.campaign_id }),
  }),
  defineTool({
    name: 'list_campaigns',
    title: 'List campaigns',
    description: 'Campaigns of the connected ad account, optionally filtered by status.',
    input: { platform, status: z.enum(['ENABLED', 'PAUSED', 'REMOVED']).optional().describe('Status filter, e.g. ENABLED.') },
    readOnly: true,
    destructive: false,
    toCall: (i) => dispatch('list_campaigns', { platform: i.platform, status: i.status }),
  }),
  defineTool({
    name: 'pause_campaign',
    title: 'Pause a campaign',
    description: 'Pauses a campaign. Under the default policy it runs at once and is audited.',
    input: { platform, campaign_id: campaignId },
    readOnly: false,
    destructive: true,
    toCall: (i) => dispatch('pause_campaign', { campaign_id: i.campaign_id }, i.platform),
  }),
  defineTool({
    name: 'enable_campaign',
    title: 'Enable a campaign',
    description: 'Enables (resumes) a campaign. The default policy holds this for review: check `status` in the result.',
    input: { platform, campaign_id: campaignId },
    readOnly: false,
    destructive: true,
    toCall: (i) => dispatch('enable_campaign', { campaign_id: i.campaign_id }, i.platform),
  }),
  defineTool({
    name: 'update_campaign_budget',
    title: 'Update a daily budget',
    description: 'Sets a campaign\'s daily budget, in the account currency. Check `status`: a policy may hold or block it.',
    input: { platform, campaign_id: campaignId, daily_budget: z.number().positive().describe('New daily budget in the account currency.') },
    readOnly: false,
    destructive: true,
    toCall: (i) => dispatch('update_campaign_budget', { campaign_id: i.campaign_id, daily_budget: i.daily_budget }, i.platform),
  }),
  defineTool({
    name: 'list_landing_pages',
    title: 'List landing pages',
    description: 'Landing pages of the workspace (served by GET /api/v1/landing-pages, not the dispatcher).',
    input: {},
    readOnly: true,
    destructive: false,
    toCall: () => ({ kind: 'landing_pages' }),
  }),
  defineTool({
    name: 'stage_audience_artifact',
    title: 'Stage an audience artifact',
    description: 'Stages hashed identifiers for a later audience script (POST {api_url}/artifacts/audience-sync-input); returns an artifact_id.',
    input: {
      body: z.array(z.string()).min(1).describe('Hashed identifiers: lowercase SHA-256 hex of normalised e-mails or phones.'),
      identifier_type: z.enum(['EMAIL', 'PHONE']).optional().describe('What was hashed (default EMAIL).'),
      script_name: z.string().optional().describe('The audience script the artifact is for.'),
      ttl_seconds: z.number().int().min(60).max(MAX_ARTIFACT_TTL_S).optional().describe('How long the artifact is kept (default 3600).'),
    },
    readOnly: false,
    destructive: false,
    toCall: (i) => ({ kind: 'stage_artifact', body: { body: i.body, identifier_type: i.identifier_type, script_name: i.script_name, ttl_seconds: i.ttl_seconds } }),
  }),
  defineTool({
    name: 'run_tool',
    title: 'Run any script',
    description: 'Runs any dispatchable script by its catalog name with flags in order, e.g. {"script_name": "list_campaigns", "args": ["--status", "ENABLED"]}.',
    input: {
      script_name: z.string().min(1).describe('Catalog script name (not an MCP tool name).'),
      args: z.array(z.string()).default([]).describe('Flags and values in order.'),
      platform: z.string().optional().describe('Platform for platform-routed scripts.'),
    },
    readOnly: false,
    destructive: true,
    toCall: (i) => ({ kind: 'dispatch', script: i.script_name, args: i.args, ...(i.platform ? { platform: i.platform } : {}) }),
  }),
  defineTool({
    name: 'get_credit_balance',
    title: 'Credit balance',
    description: 'The workspace\'s credit balance and whether a payment method is on file.',
    input: {},
    readOnly: true,
    destructive: false,
    toCall: () => ({ kind: 'credits' }),
  }),
  defineTool({
    name: 'list_connected_accounts',
    title: 'Connected accounts',
    description: 'Ad accounts connected to the workspace.',
    input: { platform: z.string().optional().describe('Only this platform.') },
    readOnly: true,
    destructive: false,
    toCall: (i) => ({ kind: 'connections', ...(i.platform ? { platform: i.platform } : {}) }),
  }),
]
