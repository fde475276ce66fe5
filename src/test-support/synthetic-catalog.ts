/**
 * A synthetic MCP `tools/list` result in the format hosted ad-ops services publish (issue 35 item 6):
 * FastMCP-style input schemas (`title` per property, `default`, `anyOf` with `null` for optionals,
 * `required`), annotations with `effect` and `externalMutation`, and the `[effect=…; scope=…]`
 * description suffix. Every name, description and schema here is the project's own, built from
 * patterns: it is not a copy of any real catalog. `npx tsx src/test-support/synthetic-catalog.ts`
 * rewrites fixtures/catalogs/synthetic-200.json (a test keeps that file equal to this generator).
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export type Effect = 'read' | 'write' | 'publish' | 'state'

export interface SyntheticTool {
  [more: string]: unknown
  name: string
  title: string
  description: string
  inputSchema: Record<string, unknown>
  annotations: Record<string, unknown>
}

type Prop = Record<string, unknown>

const AD_PLATFORMS = ['google', 'meta', 'linkedin', 'microsoft', 'reddit', 'tiktok', 'x', 'amazon', 'pinterest', 'snap', 'spotify', 'quora'] as const

const titleOf = (name: string) => name.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')

/** A required property (no default). */
function required(name: string, type: string, extra: Prop = {}): [string, Prop, true] {
  return [name, { title: titleOf(name), type, ...extra }, true]
}

/** An optional property the FastMCP way: `anyOf [T, null]`, `default: null`. */
function optional(name: string, type: string, extra: Prop = {}): [string, Prop, false] {
  return [name, { anyOf: [{ type, ...extra }, { type: 'null' }], default: null, title: titleOf(name) }, false]
}

/** An optional property with a concrete default. */
function withDefault(name: string, type: string, value: unknown, extra: Prop = {}): [string, Prop, false] {
  return [name, { default: value, title: titleOf(name), type, ...extra }, false]
}

const DATE = { pattern: '^\\d{4}-\\d{2}-\\d{2}$' }
const PRESETS = ['today', 'yesterday', 'last_7_days', 'last_14_days', 'last_30_days', 'last_90_days', 'this_month', 'last_month']

function schemaOf(fn: string, props: Array<[string, Prop, boolean]>): Record<string, unknown> {
  return {
    type: 'object',
    title: `${fn}Arguments`,
    properties: Object.fromEntries(props.map(([n, p]) => [n, p])),
    required: props.filter(([, , r]) => r).map(([n]) => n),
  }
}

interface Spec {
  name: string
  summary: string
  effect: Effect
  scope: string
  props: Array<[string, Prop, boolean]>
  credits?: number
  external?: boolean
  entitlement?: string
}

function toolOf(spec: Spec): SyntheticTool {
  const readOnly = spec.effect === 'read'
  const cost = spec.credits === undefined ? '' : spec.credits === 0 ? ' Free.' : ` Costs ${spec.credits} credits.`
  const suffix = [`effect=${spec.effect}`, `scope=${spec.scope}`, spec.entitlement ? `requires=${spec.entitlement}` : '', spec.external ? 'externalMutation=true' : '']
    .filter(Boolean).join('; ')
  const title = titleOf(spec.name)
  return {
    name: spec.name,
    title,
    description: `${spec.summary}${cost} [${suffix}]`,
    inputSchema: schemaOf(spec.name, spec.props),
    annotations: {
      title,
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && spec.effect !== 'write',
      effect: spec.effect,
      externalMutation: spec.external ?? false,
      ...(spec.entitlement ? { requiredEntitlement: spec.entitlement } : {}),
    },
  }
}

const account = () => [optional('account_id', 'string'), optional('account_name', 'string')]
const window = () => [
  withDefault('days', 'integer', 30, { minimum: 1, maximum: 1095 }),
  optional('date_range', 'string', { enum: PRESETS }),
  optional('start_date', 'string', DATE),
  optional('end_date', 'string', DATE),
]

/** Twelve tools per ad platform: reports, lists, a lookup, state changes, writes and a publish. */
function platformSpecs(p: string): Spec[] {
  return [
    { name: `${p}_performance_report`, summary: `Performance rows (spend, clicks, conversions) of ${p} ads for a window.`, effect: 'read', scope: 'reporting:read', credits: 2,
      props: [...window(), ...account(), withDefault('level', 'string', 'campaign', { enum: ['account', 'campaign', 'ad_group', 'ad'] })] },
    { name: `${p}_list_campaigns`, summary: `Campaigns of a connected ${p} account.`, effect: 'read', scope: 'campaigns:read', credits: 0,
      props: [...account(), optional('status', 'string', { enum: ['ENABLED', 'PAUSED', 'REMOVED'] }), withDefault('limit', 'integer', 50, { minimum: 1, maximum: 100 })] },
    { name: `${p}_list_ad_groups`, summary: `Ad groups (ad sets) of one ${p} campaign.`, effect: 'read', scope: 'campaigns:read',
      props: [required('campaign_id', 'string'), ...account(), withDefault('limit', 'integer', 50)] },
    { name: `${p}_get_campaign`, summary: `One ${p} campaign with its settings.`, effect: 'read', scope: 'campaigns:read',
      props: [required('campaign_id', 'string'), ...account()] },
    { name: `${p}_list_audiences`, summary: `Saved audiences on ${p}.`, effect: 'read', scope: 'audiences:read',
      props: [...account(), withDefault('page', 'integer', 1), withDefault('limit', 'integer', 25)] },
    { name: `${p}_search_terms_insights`, summary: `Search terms and their metrics on ${p}.`, effect: 'read', scope: 'intel:read', credits: 3,
      props: [...window(), ...account()] },
    { name: `${p}_pause_campaign`, summary: `Pauses a ${p} campaign.`, effect: 'state', scope: 'campaigns:state', credits: 2, external: true,
      props: [required('campaign_id', 'string'), ...account()] },
    { name: `${p}_resume_campaign`, summary: `Resumes a paused ${p} campaign.`, effect: 'state', scope: 'campaigns:state', credits: 2, external: true,
      entitlement: 'campaignPublishing', props: [required('campaign_id', 'string'), ...account()] },
    { name: `${p}_set_daily_budget`, summary: `Sets the daily budget of a ${p} campaign.`, effect: 'write', scope: 'budget:write', credits: 5, external: true,
      props: [required('campaign_id', 'string'), required('daily_budget', 'number', { exclusiveMinimum: 0 }), ...account()] },
    { name: `${p}_create_campaign_draft`, summary: `Creates a paused ${p} campaign draft.`, effect: 'write', scope: 'campaigns:write', credits: 10, external: true,
      props: [required('name', 'string', { maxLength: 120 }), optional('objective', 'string'), withDefault('daily_budget', 'number', 25.0), ...account()] },
    { name: `${p}_upload_audience_list`, summary: `Uploads hashed identifiers to a ${p} audience.`, effect: 'write', scope: 'audiences:write', external: true,
      entitlement: 'campaignPublishing', props: [required('audience_name', 'string'), required('body', 'string'), withDefault('i_have_consent', 'boolean', false)] },
    { name: `${p}_publish_ad`, summary: `Publishes an approved ad on ${p}; it starts serving.`, effect: 'publish', scope: 'creative:publish', credits: 20, external: true,
      entitlement: 'campaignPublishing', props: [required('ad_id', 'string'), ...account()] },
  ]
}

/** Workspace-level tools that name no platform. */
const WORKSPACE_SPECS: Spec[] = [
  { name: 'list_linked_accounts', summary: 'Accounts linked to the workspace, on every platform.', effect: 'read', scope: 'connections:read', credits: 0,
    props: [optional('platform', 'string'), withDefault('page', 'integer', 1), withDefault('limit', 'integer', 50, { maximum: 100 }), withDefault('offset', 'integer', 0)] },
  { name: 'get_wallet_balance', summary: 'The credit wallet of the workspace.', effect: 'read', scope: 'billing:read', credits: 0, props: [] },
  { name: 'estimate_tool_price', summary: 'What a tool would cost in credits.', effect: 'read', scope: 'billing:read', props: [required('tool_name', 'string')] },
  { name: 'cross_channel_spend_report', summary: 'Spend per platform and day across the workspace.', effect: 'read', scope: 'reporting:read', credits: 3, props: [...window()] },
  { name: 'list_site_pages', summary: 'Landing pages with publish status.', effect: 'read', scope: 'landing_pages:read', props: [withDefault('limit', 'integer', 20)] },
  { name: 'get_site_page', summary: 'One landing page.', effect: 'read', scope: 'landing_pages:read', props: [required('page_id', 'string')] },
  { name: 'draft_site_page', summary: 'Drafts a landing page.', effect: 'write', scope: 'landing_pages:write', props: [required('title', 'string'), optional('template', 'string')] },
  { name: 'publish_site_page', summary: 'Publishes a landing page to its domain.', effect: 'publish', scope: 'landing_pages:publish', external: true, props: [required('page_id', 'string')] },
  { name: 'list_spend_guards', summary: 'Spend guards armed on campaigns.', effect: 'read', scope: 'guardrails:read', props: [] },
  { name: 'arm_spend_guard', summary: 'Arms an automatic pause when spend passes a threshold.', effect: 'write', scope: 'guardrails:write',
    props: [required('campaign_id', 'string'), required('spend_threshold', 'number'), withDefault('min_age_hours', 'integer', 72)] },
  { name: 'disarm_spend_guard', summary: 'Disarms a spend guard.', effect: 'state', scope: 'guardrails:write', props: [required('guard_id', 'string')] },
  { name: 'list_schedules', summary: 'Automations scheduled on the workspace.', effect: 'read', scope: 'automation:read', props: [] },
  { name: 'create_schedule', summary: 'Schedules a read-only pacing check.', effect: 'write', scope: 'automation:write',
    props: [required('name', 'string'), withDefault('every_hours', 'integer', 4), withDefault('approval_mode', 'string', 'manual', { enum: ['manual', 'auto'] })] },
  { name: 'stop_schedule', summary: 'Stops a scheduled automation.', effect: 'state', scope: 'automation:write', props: [required('schedule_id', 'string')] },
  { name: 'shop_list_orders', summary: 'Recent store orders.', effect: 'read', scope: 'commerce:read', props: [...window(), withDefault('limit', 'integer', 50)] },
  { name: 'shop_list_products', summary: 'Store products.', effect: 'read', scope: 'commerce:read', props: [withDefault('limit', 'integer', 50), optional('query', 'string')] },
  { name: 'shop_update_product_price', summary: 'Changes a product price in the store.', effect: 'write', scope: 'commerce:write', external: true,
    props: [required('product_id', 'string'), required('price', 'number')] },
  { name: 'creative_render_image', summary: 'Renders an ad image from a prompt.', effect: 'write', scope: 'creative:generate', credits: 8,
    props: [required('prompt', 'string'), withDefault('size', 'string', '1080x1080')] },
  { name: 'creative_list_assets', summary: 'Creative assets in the library.', effect: 'read', scope: 'creative:read', props: [withDefault('limit', 'integer', 30)] },
  { name: 'crm_list_segments', summary: 'CRM segments available for activation.', effect: 'read', scope: 'signals:read', props: [] },
  { name: 'crm_push_segment', summary: 'Pushes a CRM segment to an ad platform.', effect: 'write', scope: 'audiences:write', external: true,
    entitlement: 'crmIntegrations', props: [required('segment_id', 'string'), required('platform', 'string')] },
  { name: 'mail_list_campaigns', summary: 'E-mail campaigns.', effect: 'read', scope: 'email:read', props: [] },
  { name: 'mail_send_test', summary: 'Sends a test e-mail.', effect: 'write', scope: 'email:write', external: true, props: [required('campaign_id', 'string'), required('to', 'string')] },
  { name: 'competitor_ad_library', summary: 'Ads competitors run, by domain.', effect: 'read', scope: 'intel:read', credits: 4, props: [required('domain', 'string')] },
  { name: 'prospect_company_lookup', summary: 'Firmographics of a company.', effect: 'read', scope: 'intel:read', entitlement: 'prospectorAccess', props: [required('domain', 'string')] },
  { name: 'workspace_add_note', summary: 'Adds a note to the workspace log.', effect: 'write', scope: 'workspace:write', props: [required('text', 'string')] },
  { name: 'workspace_get_profile', summary: 'The workspace profile.', effect: 'read', scope: 'workspace:read', props: [] },
  { name: 'signal_list_events', summary: 'Conversion events received.', effect: 'read', scope: 'signals:read', props: [...window(), withDefault('limit', 'integer', 100)] },
  { name: 'tracking_audit_site', summary: 'Checks tags on a site.', effect: 'read', scope: 'tracking:read', props: [required('url', 'string', { format: 'uri' })] },
  { name: 'tracking_create_conversion_goal', summary: 'Creates a conversion goal.', effect: 'write', scope: 'tracking:write', external: true,
    props: [required('name', 'string'), withDefault('category', 'string', 'PURCHASE', { enum: ['PURCHASE', 'SIGNUP', 'LEAD'] })] },
  { name: 'plan_create', summary: 'Creates a campaign plan document.', effect: 'write', scope: 'campaigns:plan', props: [required('plan_key', 'string'), required('title', 'string')] },
  { name: 'plan_get', summary: 'A campaign plan.', effect: 'read', scope: 'campaigns:read', props: [required('plan_id', 'string')] },
  { name: 'plan_submit_for_review', summary: 'Moves a plan to review.', effect: 'state', scope: 'campaigns:plan', props: [required('plan_id', 'string'), withDefault('expected_version', 'integer', 1)] },
  { name: 'plan_launch', summary: 'Launches an approved plan.', effect: 'publish', scope: 'campaigns:structure', credits: 50, external: true, entitlement: 'campaignPublishing',
    props: [required('plan_id', 'string'), required('launch_token', 'string'), withDefault('qa_override_approved', 'boolean', false)] },
  { name: 'run_job_status', summary: 'Status of a background job.', effect: 'read', scope: 'workspace:read', props: [required('job_id', 'string')] },
  { name: 'notify_team', summary: 'Posts a message to the team channel.', effect: 'write', scope: 'workspace:notify', external: true, props: [required('message', 'string')] },
]

/** The synthetic catalog: `count` tools (default 200): 12 per ad platform, 36 workspace tools, then `_r<n>` variants. */
export function syntheticCatalog(count = 200): SyntheticTool[] {
  const base = [...AD_PLATFORMS.flatMap(platformSpecs), ...WORKSPACE_SPECS]
  const specs: Spec[] = []
  // Beyond the base set, regional variants keep names unique and the shapes the same.
  for (let round = 0; specs.length < count; round++) {
    for (const spec of base) {
      if (specs.length >= count) break
      specs.push(round === 0 ? spec : { ...spec, name: `${spec.name}_r${round}` })
    }
  }
  return specs.map(toolOf)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--out')
  const out = at > 0 ? process.argv[at + 1] : 'fixtures/catalogs/synthetic-200.json'
  writeFileSync(out, `${JSON.stringify({ tools: syntheticCatalog() }, null, 2)}\n`)
  process.stdout.write(`wrote ${out}\n`)
}
