import express from 'express'
import type { Express } from 'express'
import type { AppContext } from './context.js'
import type { Route } from './reply.js'
import type { ControlRoutes } from './control-app.js'
import { mountRoutes } from './reply.js'
import { createControlRouter } from './control-app.js'
import { errorHandler, notFoundHandler } from './error-handler.js'
import { journalMiddleware, keepRawBody } from './journal.js'
import { jsonBody } from './body.js'
import { requestIdMiddleware } from './request-id.js'
import { keyRoutes } from './routes/keys.js'

/** What other modules plug into the base host. */
export interface BaseAppExtensions {
  routes?: Array<(ctx: AppContext) => Route[]>
  control?: ControlRoutes[]
  /** Raw express mounts (MCP, console, connect pages) before the JSON API. */
  mounts?: Array<(app: Express, ctx: AppContext) => void>
  /** Static pages under `/_sandbox` that load without the admin token (the console shell); their data calls still need it. */
  pages?: Array<(app: Express, ctx: AppContext) => void>
}

export const JSON_LIMIT = '1mb'

/** The base host `{base_url}`: `/api/v1/*`, the control plane and pages (DESIGN "Processes"). */
export function createBaseApp(ctx: AppContext, ext: BaseAppExtensions = {}): Express {
  const app = baseExpress()
  app.use(journalMiddleware(ctx.journal, ctx.clock, 'base', (req) => ctx.adminGate.admits(req)))
  for (const page of ext.pages ?? []) page(app, ctx)
  app.use('/_sandbox', createControlRouter(ctx, ext.control))
  for (const mount of ext.mounts ?? []) mount(app, ctx)
  app.use(jsonBody({ limit: JSON_LIMIT, verify: keepRawBody }))
  const router = express.Router()
  mountRoutes(router, ctx.deps.store, [keyRoutes, ...(ext.routes ?? [])].flatMap((make) => make(ctx)))
  app.use(router)
  app.use(notFoundHandler((path) => baseHint(ctx, path)))
  app.use(errorHandler(ctx.logger))
  return app
}

// The mirror of the api host's REST-04 pointer: `/v1/*` is the api host's, say where it is (issue 18).
function baseHint(ctx: AppContext, path: string): string | undefined {
  return path === '/v1' || path.startsWith('/v1/') ? `The backend REST API lives on the api host: ${ctx.urls.api}${path}` : undefined
}

/** An express app with the sandbox's shared settings. */
export function baseExpress(): Express {
  const app = express()
  app.use(requestIdMiddleware)
  app.disable('x-powered-by')
  app.set('etag', false)
  return app
}
