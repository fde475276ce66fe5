import { z } from 'zod'
import { nowIn } from '../../domain/workspace-time.js'
import type { Request } from 'express'
import type { Deps } from '../../domain/ports.js'
import type { AppContext } from '../context.js'
import type { Reply, Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { actorOf } from '../auth.js'
import { prepareCall, resolveScript } from '../../domain/args.js'
import { calendarDate } from '../../domain/dates.js'
import { dispatchPrepared, outcomeBody, outcomeStatus } from '../../domain/dispatcher.js'
import type { CampaignRow, DateRange } from '../../domain/campaign-view.js'
import { campaignRow, listCampaigns, resolveRange, ROW_WINDOW_DAYS } from '../../domain/campaign-view.js'
import { keepUnchanged, sameRows } from '../../domain/kept-values.js'
import { findCampaign } from '../../domain/campaigns.js'
import { metricsRange, sumMetrics, lastDays } from '../../domain/metrics.js'
import { takeToken } from '../../domain/rate-limits.js'
import { SandboxError } from '../../domain/errors.js'
import { extend } from '../../support/objects.js'

const listQuery = z.object({
  status: z.string().transform((s) => s.toUpperCase()).pipe(z.enum(['ENABLED', 'PAUSED', 'REMOVED'], 'must be ENABLED, PAUSED or REMOVED')).optional(),
  platform: z.string().optional(),
  name: z.string().optional(),
  page: z.coerce.number().int().min(1, 'must be an integer from 1').default(1),
  limit: z.coerce.number().int().min(1).max(100, 'must be an integer from 1 to 100').default(50),
})
/** The query parameters `GET /v1/campaigns` knows. */
export const LIST_PARAMS: ReadonlySet<string> = new Set(Object.keys(listQuery.shape))
/** The scope `GET /v1/campaigns` needs. */
export const LIST_SCOPE = 'campaigns:read'
export type ListQuery = z.output<typeof listQuery>

/** `GET /v1/campaigns`'s query, validated; a bad value is 400 naming the parameter. */
export function parseListQuery(raw: unknown): ListQuery {
  return parseInput(listQuery, raw, 'Query')
}

/** Only Google campaigns exist here (REST-01): another platform is 400 UNSUPPORTED_PLATFORM. */
export function requireGoogle(query: ListQuery): void {
  if (query.platform !== undefined && query.platform.trim().toLowerCase() !== 'google') {
    throw new SandboxError('UNSUPPORTED_PLATFORM', { reason: `unsupported platform "${query.platform}"; supported: google`, platform: query.platform })
  }
}

/** `GET /v1/campaigns`'s body. */
export interface CampaignListBody {
  campaigns: CampaignRow[]
  total: number
  page: number
  limit: number
  has_more: boolean
  date_range: DateRange
  sandbox: true
}

/**
 * One page of the workspace's campaign rows with 30-day metrics ending today (REST-01). A page
 * equal to the last one asked (same totals and dates, the very same shared rows) is answered with
 * that same frozen body (`keepUnchanged`), so its JSON text is reused too.
 */
export function campaignListBody(deps: Deps, workspaceId: string, query: ListQuery): CampaignListBody {
  const now = nowIn(deps, workspaceId)
  const all = listCampaigns(deps, workspaceId, query)
  const start = (query.page - 1) * query.limit
  const body: CampaignListBody = {
    campaigns: all.slice(start, start + query.limit).map((c) => campaignRow(c, now)),
    total: all.length, page: query.page, limit: query.limit, has_more: start + query.limit < all.length,
    date_range: extend(lastDays(now, ROW_WINDOW_DAYS), { days: ROW_WINDOW_DAYS }),
    sandbox: true,
  }
  return keepUnchanged(deps, `v1-campaigns|${workspaceId}|${query.status}|${query.name}|${query.page}|${query.limit}`, body, { same: sameList })
}

function sameList(a: CampaignListBody, b: CampaignListBody): boolean {
  return a.total === b.total && a.page === b.page && a.limit === b.limit && a.has_more === b.has_more &&
    a.date_range.start_date === b.date_range.start_date && a.date_range.end_date === b.date_range.end_date &&
    sameRows(a.campaigns, b.campaigns)
}

const metricsQuery = z.object({
  days: z.coerce.number().int().min(1).max(1095, 'must be an integer from 1 to 1095').optional(),
  start_date: calendarDate.optional(),
  end_date: calendarDate.optional(),
})
const pauseBody = z.object({ reason: z.string().max(500).optional(), dry_run: z.boolean('must be true or false').optional() })
const budgetBody = z.object({
  daily_budget: z.number('must be a number in the account currency'), reason: z.string().max(500).optional(), dry_run: z.boolean('must be true or false').optional(),
})
// `dry_run: true` on a REST write is the tools' `--dry-run`: decide and price, run nothing.
const dryRunArg = (body: { dry_run?: boolean }) => (body.dry_run ? ['--dry-run'] : [])

/** `{api_url}/v1/campaigns…` (REST-01, REST-02): reads, and pause/budget through the write path. */
export function campaignRoutes(ctx: AppContext): Route[] {
  const { deps } = ctx
  return [
    {
      method: 'get',
      path: '/v1/campaigns',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', LIST_SCOPE)
        const query = parseListQuery({ ...req.query })
        requireGoogle(query)
        takeToken(deps, actor)
        return { body: campaignListBody(deps, actor.workspace.id, query) }
      },
    },
    {
      method: 'get',
      path: '/v1/campaigns/:id',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'campaigns:read')
        const campaign = findCampaign(deps, actor.workspace.id, param(req, 'id'))
        takeToken(deps, actor)
        return { body: { ...campaignRow(campaign, nowIn(deps, actor.workspace.id)), created_at: campaign.created_at, status_history: campaign.status_history, budget_history: campaign.budget_history, sandbox: true } }
      },
    },
    {
      method: 'get',
      path: '/v1/campaigns/:id/metrics',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'reporting:read')
        const query = parseInput(metricsQuery, { ...req.query }, 'Query')
        const campaign = findCampaign(deps, actor.workspace.id, param(req, 'id'))
        const now = nowIn(deps, actor.workspace.id)
        const range = resolveRange(query, now, { days: 'days', start_date: 'start_date' })
        // Last: a refused request (404, 400) takes no rate-limit token (ERR-05).
        takeToken(deps, actor)
        const daily = metricsRange(campaign, range.start_date, range.end_date, now)
        return {
          body: {
            campaign_id: campaign.id, campaign_name: campaign.campaign_name, status: campaign.status, currency: campaign.currency,
            date_range: range, totals: sumMetrics(daily), daily, sandbox: true,
          },
        }
      },
    },
    {
      method: 'post',
      path: '/v1/campaigns/:id/pause',
      handler: (req) => restWrite(ctx, req, {
        script: 'pause_campaign', schema: pauseBody, body: (r) => r.body ?? {},
        args: (body) => ['--campaign-id', param(req, 'id'), ...dryRunArg(body)],
        shape: (result) => ({ id: result.campaign_id, platform: 'GOOGLE', name: result.campaign_name, status: result.status, previous_status: result.previous_status }),
      }),
    },
    {
      method: 'patch',
      path: '/v1/campaigns/:id/budget',
      handler: (req) => restWrite(ctx, req, {
        script: 'update_campaign_budget', schema: budgetBody, field: 'daily_budget',
        args: (body) => ['--campaign-id', param(req, 'id'), '--daily-budget', String(body.daily_budget), ...dryRunArg(body)],
        shape: (result) => ({ id: result.campaign_id, platform: 'GOOGLE', name: result.campaign_name, daily_budget: result.daily_budget }),
      }),
    },
  ]
}

/** One REST write: its script, body schema, how the body becomes args, and the `campaign` it answers. */
interface RestWriteSpec<S extends z.ZodType> {
  script: string
  schema: S
  args: (body: z.output<S>) => string[]
  shape: (result: Record<string, unknown>) => Record<string, unknown>
  /** The body field a bad flag value came from, named instead of the flag. */
  field?: string
  /** The body to validate (default `req.body`). */
  body?: (req: Request) => unknown
}

/**
 * A REST write as the same dispatcher call a tool would make (REST-02): authenticate and authorize
 * the script's scope first, then the body and args, then the same gate, credits and audit.
 * Executed writes answer `{success, campaign, credits_used, audit_id}`.
 */
function restWrite<S extends z.ZodType>(ctx: AppContext, req: Request, spec: RestWriteSpec<S>): Reply {
  const actor = actorOf(ctx, req, 'resource', resolveScript(spec.script).required_scope)
  const body = parseInput(spec.schema, spec.body ? spec.body(req) : req.body)
  let call
  try {
    call = prepareCall({ script_name: spec.script, args: spec.args(body), platform: 'google' })
  } catch (error) {
    // On REST the value is a body field, not a flag: name the field the caller sent.
    if (error instanceof SandboxError && error.code === 'INVALID_ARGS' && spec.field) throw new SandboxError('INVALID_ARGS', { ...error.details, flag: spec.field })
    throw error
  }
  const outcome = dispatchPrepared(ctx.deps, actor, call, 'backend')
  if (outcome.kind !== 'executed') return { status: outcomeStatus(outcome), body: outcomeBody(outcome) }
  const { result } = outcome
  return {
    body: {
      success: true, campaign: spec.shape(result), ...(result.effective_from ? { effective_from: result.effective_from } : {}),
      credits_used: outcome.audit.credits, audit_id: outcome.audit.id, sandbox: true,
    },
  }
}
