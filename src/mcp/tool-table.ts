import { z } from 'zod'
import type { ArgsMap } from '../client/flags.js'
import { toFlags } from '../client/flags.js'
import { MAX_ARTIFACT_TTL_S } from '../domain/artifacts.js'
import { accountArgs, audienceLines, campaignId, executeArgs, flagsOf, pagingArgs, platform, windowArgs } from './tool-args.js'

/**
 * What an MCP tool asks a backend to do. MCP tool names are not script names (MCP-05): the table
 * below turns each tool's input into one of these, and both backends (hosted in-process, stdio over
 * REST) carry it out the same way.
 */
export type ToolCall =
  | { kind: 'dispatch'; script: string; args: string[]; platform?: string; dry_run?: boolean }
  | { kind: 'landing_pages' }
  | { kind: 'stage_artifact'; body: Record<string, unknown> }
  | { kind: 'credits' }
  | { kind: 'connections'; platform?: string; paging?: Paging }

/** A listing's page: `offset` wins over `page`; `limit` defaults to 50 (issue 35). */
export interface Paging { page?: number; limit?: number; offset?: number }

/** The real catalog's effect classes (research sheet §1.3): what a call does to the world. */
export type ToolEffect = 'read' | 'write' | 'state' | 'publish'

/** One MCP tool: name, annotations, zod input shape and its mapping to a `ToolCall`. */
export interface McpTool {
  name: string
  title: string
  /** Plain text; `[effect=…; scope=…]` is appended when listed (`describedAs`). */
  description: string
  input: z.ZodRawShape
  readOnly: boolean
  destructive: boolean
  effect: ToolEffect
  /** The scope the sandbox checks for this call (`per-script`: the script's own, for the generic tools). */
  scope: string
  /** Changes something on the ad platform itself (spend, delivery), not only sandbox records. */
  externalMutation: boolean
  /** Informational, as in the real catalog: the sandbox has no plans or entitlements. */
  requiredEntitlement?: string
  toCall(input: Record<string, unknown>): ToolCall
}

function defineTool<S extends z.ZodRawShape>(tool: Omit<McpTool, 'input' | 'toCall'> & {
  input: S
  toCall(input: z.infer<z.ZodObject<S>>): ToolCall
}): McpTool {
  return tool as unknown as McpTool
}

function dispatch(script: string, args: ArgsMap, platformName?: string): ToolCall {
  return { kind: 'dispatch', script, args: toFlags(args), ...(platformName ? { platform: platformName } : {}) }
}

const read = { readOnly: true, destructive: false, effect: 'read', externalMutation: false } as const
const account = (i: { account_id?: string | null; account_name?: string | null }) => ({ account_id: i.account_id, account_name: i.account_name })

/** A tool's description as listed: the text, then `[effect=…; scope=…; requires=…; externalMutation=true]`. */
export function describedAs(tool: McpTool): string {
  const parts = [`effect=${tool.effect}`, `scope=${tool.scope}`]
  if (tool.requiredEntitlement) parts.push(`requires=${tool.requiredEntitlement}`)
  if (tool.externalMutation) parts.push('externalMutation=true')
  return `${tool.description} [${parts.join('; ')}]`
}

/**
 * The MCP tool table (MCP-05). Names and argument names follow the hosted service's catalog
 * (issue 35); scripts are the catalog's canonical names, so the same write lands in the same audit
 * through REST and MCP. A list of definitions: other tool sources are appended to it.
 */
export const MCP_TOOLS: readonly McpTool[] = [
  defineTool({
    ...read, name: 'pull_google_ads_performance', title: 'Google Ads performance', scope: 'reporting:read',
    description: 'Campaign performance (impressions, clicks, conversions, cost) for a window: days, a date_range preset or start_date/end_date; level campaign (default) or account. Runs the script pull_google_ads. 2 credits.',
    input: { ...windowArgs, campaign_id: z.string().nullish().describe('Only this campaign.'), level: z.enum(['campaign', 'account']).nullish().describe('Rows per campaign (default) or one row for the account.'), ...accountArgs },
    toCall: (i) => dispatch('pull_google_ads', {
      days: i.days, date_range: i.date_range, start_date: i.start_date, end_date: i.end_date, campaign_id: i.campaign_id, level: i.level, ...account(i),
    }),
  }),
  defineTool({
    ...read, name: 'list_campaigns', title: 'List campaigns', scope: 'campaigns:read',
    description: 'Campaigns of an ad account with 30-day metrics, optionally filtered by status.',
    input: { platform, status: z.enum(['ENABLED', 'PAUSED', 'REMOVED']).nullish().describe('Status filter, e.g. ENABLED.'), ...accountArgs },
    toCall: (i) => dispatch('list_campaigns', { platform: i.platform, status: i.status, ...account(i) }),
  }),
  defineTool({
    name: 'pause_campaign', title: 'Pause a campaign', scope: 'campaigns:write', readOnly: false, destructive: true, effect: 'state', externalMutation: true,
    description: 'Pauses a campaign. Under the default policy it runs at once and is audited. 2 credits.',
    input: { platform, campaign_id: campaignId, ...accountArgs },
    toCall: (i) => dispatch('pause_campaign', { campaign_id: i.campaign_id, ...account(i) }, i.platform),
  }),
  defineTool({
    name: 'enable_campaign', title: 'Enable a campaign', scope: 'campaigns:write', readOnly: false, destructive: true, effect: 'state',
    externalMutation: true, requiredEntitlement: 'campaignPublishing',
    description: 'Enables (resumes) a campaign. The default policy holds this for review: check `status` in the result. 2 credits.',
    input: { platform, campaign_id: campaignId, ...accountArgs },
    toCall: (i) => dispatch('enable_campaign', { campaign_id: i.campaign_id, ...account(i) }, i.platform),
  }),
  defineTool({
    name: 'update_campaign_budget', title: 'Update a daily budget', scope: 'budget:write', readOnly: false, destructive: true, effect: 'write', externalMutation: true,
    description: 'Sets a campaign\'s daily budget, in the account currency. Check `status`: a policy may hold or block it. 5 credits.',
    input: { platform, campaign_id: campaignId, daily_budget: z.number().positive().describe('New daily budget in the account currency.'), ...accountArgs },
    toCall: (i) => dispatch('update_campaign_budget', { campaign_id: i.campaign_id, daily_budget: i.daily_budget, ...account(i) }, i.platform),
  }),
  defineTool({
    ...read, name: 'list_landing_pages', title: 'List landing pages', scope: 'campaigns:read',
    description: 'Landing pages of the workspace (served by GET /api/v1/landing-pages, not the dispatcher).',
    input: {},
    toCall: () => ({ kind: 'landing_pages' }),
  }),
  defineTool({
    name: 'stage_audience_artifact', title: 'Stage an audience artifact', scope: 'audiences:write', readOnly: false, destructive: false,
    effect: 'write', externalMutation: false, requiredEntitlement: 'campaignPublishing',
    description: 'Stages hashed identifiers for a later audience script (POST {api_url}/artifacts/audience-sync-input); returns an artifact_id.',
    input: {
      body: z.union([z.string().refine((text) => text.trim() !== '', 'must hold at least one identifier'), z.array(z.string()).min(1)]).describe('Hashed identifiers, one per line (a list is accepted too): lowercase SHA-256 hex of normalised e-mails or phones.'),
      identifier_type: z.enum(['EMAIL', 'PHONE']).nullish().describe('What was hashed (default EMAIL).'),
      script_name: z.string().nullish().describe('The audience script the artifact is for.'),
      ttl_seconds: z.number().int().min(60).max(MAX_ARTIFACT_TTL_S).nullish().describe('How long the artifact is kept (default 3600).'),
    },
    toCall: (i) => ({
      kind: 'stage_artifact',
      body: { body: audienceLines(i.body), identifier_type: i.identifier_type ?? undefined, script_name: i.script_name ?? undefined, ttl_seconds: i.ttl_seconds ?? undefined },
    }),
  }),
  defineTool({
    name: 'execute', title: 'Execute a script', scope: 'per-script', readOnly: false, destructive: true, effect: 'write', externalMutation: true,
    description: 'Runs any dispatchable script by its catalog name (`action`) with flags as a list or a map, through the same gate, credits and audit as every write; dry_run: true decides and prices a write without running it. Runs immediately by default.',
    input: {
      action: z.string().min(1).describe('Catalog script name, e.g. list_campaigns (not an MCP tool name).'),
      args: executeArgs,
      platform: z.string().nullish().describe('Platform for platform-routed scripts.'),
      account_id: z.string().min(1).nullish().describe('Sent as --account-id, for scripts that take it.'),
      customer_id: z.string().min(1).nullish().describe('Same as account_id (Google Ads customer id).'),
      dry_run: z.boolean().default(false).describe('Decide and price a write without running it.'),
    },
    toCall: (i) => {
      const args = flagsOf(i.args)
      const id = i.account_id ?? i.customer_id
      if (id && !args.includes('--account-id')) args.push('--account-id', id)
      return { kind: 'dispatch', script: i.action, args, ...(i.platform ? { platform: i.platform } : {}), ...(i.dry_run ? { dry_run: true } : {}) }
    },
  }),
  defineTool({
    name: 'run_tool', title: 'Run any script', scope: 'per-script', readOnly: false, destructive: true, effect: 'write', externalMutation: true,
    description: 'Legacy name of execute: runs any dispatchable script by its catalog name with flags in order, e.g. {"script_name": "list_campaigns", "args": ["--status", "ENABLED"]}.',
    input: {
      script_name: z.string().min(1).describe('Catalog script name (not an MCP tool name).'),
      args: z.array(z.string()).default([]).describe('Flags and values in order.'),
      platform: z.string().nullish().describe('Platform for platform-routed scripts.'),
    },
    toCall: (i) => ({ kind: 'dispatch', script: i.script_name, args: i.args, ...(i.platform ? { platform: i.platform } : {}) }),
  }),
  defineTool({
    ...read, name: 'get_credit_balance', title: 'Credit balance', scope: 'none',
    description: 'The workspace\'s credit balance and whether a payment method is on file. Free.',
    input: {},
    toCall: () => ({ kind: 'credits' }),
  }),
  defineTool({
    ...read, name: 'list_connected_accounts', title: 'Connected accounts', scope: 'connections:read',
    description: 'Ad accounts connected to the workspace, a page at a time (page or offset, limit). Free.',
    input: { platform: z.string().nullish().describe('Only this platform.'), ...pagingArgs },
    toCall: (i) => ({
      kind: 'connections', ...(i.platform ? { platform: i.platform } : {}),
      paging: { page: i.page ?? undefined, limit: i.limit ?? undefined, offset: i.offset ?? undefined },
    }),
  }),
]
