import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { actorOf } from '../auth.js'
import { listLandingPages } from '../../domain/landing-pages.js'
import { takeToken } from '../../domain/rate-limits.js'

/** `GET /api/v1/landing-pages`: what the `list_landing_pages` tool reads, outside the dispatcher (DISP-09). */
export function landingPageRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'get',
      path: '/api/v1/landing-pages',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'resource', 'campaigns:read')
        takeToken(ctx.deps, actor)
        const landing_pages = listLandingPages(ctx.deps, actor.workspace.id)
        return { body: { landing_pages, count: landing_pages.length, sandbox: true } }
      },
    },
  ]
}
