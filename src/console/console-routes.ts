import { z } from 'zod'
import type { AppContext } from '../http/context.js'
import type { Route } from '../http/reply.js'
import { param, parseInput } from '../http/reply.js'
import { notFound } from '../domain/errors.js'
import { buildOverview } from './overview.js'
import { buildTranscript } from './transcript.js'
import { pendingQueue } from './queue.js'
import { accountSeries, campaignSeries } from './series.js'
import type { CreditDayTotals } from '../domain/ports.js'
import { clockView } from '../http/control/clock-journal-routes.js'
import { consoleJournal, consoleJournalQuery } from './journal-view.js'

const transcriptQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  key_prefix: z.string().min(1).max(40).optional(),
  workspace_id: z.string().min(1).max(64).optional(),
  download: z.enum(['0', '1']).optional(),
})

const seriesQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(90).optional() })

/**
 * Control-plane JSON the console needs beyond the shared routes, under `/_sandbox/console/*` (the
 * admin token applies): the world view (keys by prefix only, KEY-02), the review queue (GATE-01,
 * GATE-04), campaign and account daily series with credits over time (REST-01 metrics) and the agent safety transcript (GATE-01..05).
 */
export function consoleRoutes(ctx: AppContext): Route[] {
  const { store } = ctx.deps
  return [
    { method: 'get', path: '/console/overview', handler: () => ({ body: buildOverview(ctx.deps, clockView(ctx.clock)) }) },
    // The console's one poll: the clock is read with the entries, so a countdown never starts before its write.
    { method: 'get', path: '/console/queue', handler: () => ({ body: { ...clockView(ctx.clock), entries: pendingQueue(ctx.deps) } }) },
    {
      method: 'get',
      path: '/console/campaigns/:id/series',
      handler: (req) => {
        const { days } = parseInput(seriesQuery, { ...req.query }, 'Query')
        const campaign = store.campaigns.get(param(req, 'id'))
        if (!campaign) throw notFound(`Campaign ${param(req, 'id')}`)
        return { body: campaignSeries(campaign, ctx.workspaceClocks.clockFor(campaign.workspace_id).now(), days ?? 14) }
      },
    },
    {
      method: 'get',
      path: '/console/workspaces/:id/series',
      handler: (req) => {
        const { days } = parseInput(seriesQuery, { ...req.query }, 'Query')
        const workspace = store.workspaces.get(param(req, 'id'))
        if (!workspace) throw notFound(`Workspace ${param(req, 'id')}`)
        return {
          body: accountSeries({
            workspaceId: workspace.id, campaigns: store.campaigns.filter((c) => c.workspace_id === workspace.id),
            creditDays: store.ledger.aggregate<ReadonlyMap<string, ReadonlyMap<string, CreditDayTotals>>>('credit_days').get(workspace.id) ?? new Map(),
            balance: workspace.credits.balance, now: ctx.workspaceClocks.clockFor(workspace.id).now(), days: days ?? 14,
          }),
        }
      },
    },
    {
      method: 'get',
      path: '/console/journal',
      handler: (req) => ({ body: consoleJournal(ctx.journal, parseInput(consoleJournalQuery, { ...req.query }, 'Query')) }),
    },
    {
      method: 'get',
      path: '/console/transcript',
      handler: (req) => {
        const { download, ...filter } = parseInput(transcriptQuery, { ...req.query }, 'Query')
        const from = filter.from && new Date(filter.from).toISOString()
        const to = filter.to && new Date(filter.to).toISOString()
        const keyIds = filter.key_prefix
          ? new Set(store.keys.filter((k) => k.prefix.startsWith(filter.key_prefix!)).map((k) => k.id))
          : null
        // Only the window and workspace asked for are read from the history (an export: it may reach far back).
        const inScope = (row: { at: string; workspace_id: string }) =>
          (!from || row.at >= from) && (!to || row.at <= to) && (!filter.workspace_id || row.workspace_id === filter.workspace_id)
        const body = buildTranscript({
          audit: store.audit.page({ where: inScope }).rows, ledger: store.ledger.page({ where: inScope }).rows, keyIds,
          currencyOf: (id) => store.campaigns.get(id)?.currency ?? null,
          names: {
            campaign: (id) => store.campaigns.get(id)?.campaign_name ?? null,
            key: (id) => {
              const key = store.keys.get(id)
              return key ? { name: key.name, user_name: store.users.get(key.user_id)?.name ?? key.user_id } : null
            },
          },
          filter: { ...filter, ...(from ? { from } : {}), ...(to ? { to } : {}) }, now: clockView(ctx.clock).now,
        })
        const name = `agent-transcript-${body.generated_at.replace(/[:.]/g, '-')}.json`
        return { body, headers: download === '1' ? { 'Content-Disposition': `attachment; filename="${name}"` } : undefined }
      },
    },
  ]
}
