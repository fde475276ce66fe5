import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Reply, Route } from '../reply.js'
import type { Caller } from '../../domain/access.js'
import { param, parseInput } from '../reply.js'
import { actorOf, callerOf } from '../auth.js'
import { dispatchableNames, findEntry, searchCatalog } from '../../domain/catalog.js'
import { prepareCall, resolveScript } from '../../domain/args.js'
import { authorize } from '../../domain/access.js'
import { bodyOf } from '../body.js'
import { dispatchPrepared, outcomeBody, outcomeStatus } from '../../domain/dispatcher.js'
import type { AuditEntry } from '../../domain/model.js'
import { notFound } from '../../domain/errors.js'

/** The dispatcher body (DISP-01); unknown fields are ignored, as on the rest of the public API. */
export const runBody = z.object({
  script_name: z.string('must be a string naming a script').min(1, 'must name a script'),
  args: z.array(z.string('every arg must be a string'), 'must be an array of strings (flags and values, in order)').max(1000).default([]),
  platform: z.string('must be a string such as "google"').nullable().optional(),
  dry_run: z.boolean('must be true or false').optional(),
})

const catalogQuery = z.object({
  q: z.string().optional(),
  page: z.coerce.number('must be an integer from 1').int('must be an integer from 1').min(1, 'must be an integer from 1').default(1),
  limit: z.coerce.number('must be an integer from 1 to 100').int('must be an integer from 1 to 100').min(1, 'must be an integer from 1 to 100')
    .max(100, 'must be an integer from 1 to 100').default(50),
})

/** What `runTool` needs of a request; the body and caller are read only when their turn comes. */
export interface RunRequest {
  /** The request's JSON body (throws a malformed body's error once authenticated). */
  input: () => unknown
  /** Authenticates the request's credential (AUTH-01..03). */
  caller: () => Caller
  surface: AuditEntry['surface']
}

/**
 * A dispatcher call (DISP-01) in house order: authenticate → the body and script name (its scope
 * is only known from the name) → authorize that scope and the workspace (AUTH-04) → the args and
 * platform (DISP-05, ERR-05) → dispatch. Shared by the route and the fast path.
 */
export function runTool(ctx: AppContext, request: RunRequest): Reply {
  const caller = request.caller()
  const body = parseInput(runBody, request.input())
  authorize(ctx.deps, caller, resolveScript(body.script_name, ctx.deps.snapshot).required_scope)
  const outcome = dispatchPrepared(ctx.deps, caller, prepareCall(body, ctx.deps.snapshot), request.surface)
  return { status: outcomeStatus(outcome), body: outcomeBody(outcome) }
}

/** POST …/tools/run. */
function runRoute(ctx: AppContext, path: string, surface: AuditEntry['surface']): Route {
  return { method: 'post', path, handler: (req) => runTool(ctx, { input: () => bodyOf(req), caller: () => callerOf(ctx, req, 'tools'), surface }) }
}

/** Dispatcher and catalog on the base host (DISP-01..03). */
export function toolRoutes(ctx: AppContext): Route[] {
  return [
    runRoute(ctx, '/api/v1/tools/run', 'rest'),
    {
      method: 'get',
      path: '/api/v1/tools/run',
      handler: (req) => {
        actorOf(ctx, req, 'tools', 'tools:read')
        const tools = [...dispatchableNames(), ...(ctx.deps.snapshot?.entries.map((e) => e.name).sort() ?? [])]
        return { body: { tools, count: tools.length } }
      },
    },
    {
      method: 'get',
      path: '/api/v1/tools',
      handler: (req) => {
        actorOf(ctx, req, 'tools', 'tools:read')
        const query = parseInput(catalogQuery, { ...req.query }, 'Query')
        return { body: searchCatalog(query, ctx.deps.snapshot?.entries) }
      },
    },
    {
      method: 'get',
      path: '/api/v1/tools/:name',
      handler: (req) => {
        actorOf(ctx, req, 'tools', 'tools:read')
        const entry = findEntry(param(req, 'name')) ?? ctx.deps.snapshot?.find(param(req, 'name'))
        if (!entry) throw notFound(`Tool ${param(req, 'name')}`)
        return { body: entry }
      },
    },
  ]
}

/** `{api_url}/v1/tools/run`, the same dispatcher on the api host (DISP-01). */
export function apiToolRoutes(ctx: AppContext): Route[] {
  return [runRoute(ctx, '/v1/tools/run', 'backend')]
}
