import express from 'express'
import type { Express } from 'express'
import type { AppContext } from './context.js'
import type { Route } from './reply.js'
import { mountRoutes } from './reply.js'
import { errorHandler, notFoundHandler } from './error-handler.js'
import { journalMiddleware, keepRawBody } from './journal.js'
import { jsonBody } from './body.js'
import { baseExpress, JSON_LIMIT } from './base-app.js'
import { identityRoutes } from './routes/identity.js'

/** The api host `{api_url}`: `/v1/*` and the artifact endpoint; `/api/v1/*` does not exist (REST-04). */
export function createApiApp(
  ctx: AppContext,
  routes: Array<(ctx: AppContext) => Route[]> = [],
  mounts: Array<(app: Express, ctx: AppContext) => void> = [],
): Express {
  const app = baseExpress()
  app.use(journalMiddleware(ctx.journal, ctx.clock, 'api', (req) => ctx.adminGate.admits(req)))
  // Raw middleware (scripted faults) sees every exchange before routing.
  for (const mount of mounts) mount(app, ctx)
  // REST-04: nothing under /api exists here; answer 404 before a body is even parsed.
  app.use('/api', notFoundHandler((path) => apiHint(ctx, path)))
  app.use(jsonBody({ limit: JSON_LIMIT, verify: keepRawBody }))
  const router = express.Router()
  mountRoutes(router, ctx.deps.store, [identityRoutes, ...routes].flatMap((make) => make(ctx)))
  app.use(router)
  app.use(notFoundHandler((path) => apiHint(ctx, path)))
  app.use(errorHandler(ctx.logger))
  return app
}

function apiHint(ctx: AppContext, path: string): string | undefined {
  return path.startsWith('/api/') ? `The path shape {api_url}/api/v1/... does not exist; the dispatcher lives on the base host: ${ctx.urls.base}${path}` : undefined
}
