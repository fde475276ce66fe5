import express from 'express'
import type { Router } from 'express'
import type { AppContext } from './context.js'
import { mountRoutes } from './reply.js'
import { requireAdminToken } from './control/admin-token.js'
import { worldRoutes } from './control/world-routes.js'
import { peopleRoutes } from './control/people-routes.js'
import { clockJournalRoutes } from './control/clock-journal-routes.js'
import type { Route } from './reply.js'
import { JSON_LIMIT } from './base-app.js'

const STATE_IMPORT_LIMIT = '64mb'

/** Extra control routes contributed by other modules (faults, reviews, outbox, console…). */
export type ControlRoutes = (ctx: AppContext) => Route[]

/** The sandbox control plane under `/_sandbox` (DESIGN "Control plane"). */
export function createControlRouter(ctx: AppContext, extra: ControlRoutes[] = []): Router {
  const router = express.Router()
  router.use(requireAdminToken(ctx.adminGate))
  // Only a state import may be large; every other control body has the public API's 1 MB limit.
  const small = express.json({ limit: JSON_LIMIT })
  const large = express.json({ limit: STATE_IMPORT_LIMIT })
  router.use((req, res, next) => (req.method === 'PUT' && req.path === '/state' ? large : small)(req, res, next))
  const routes = [worldRoutes, peopleRoutes, clockJournalRoutes, ...extra].flatMap((make) => make(ctx))
  router.get('/', (_req, res) => {
    res.json({
      service: 'adops-sandbox control plane',
      routes: routes.map((r) => `${r.method.toUpperCase()} /_sandbox${r.path}`),
    })
  })
  mountRoutes(router, ctx.deps.store, routes)
  return router
}
