import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import { listLandingPages, setLandingPageTitle } from '../../domain/landing-pages.js'
import { workspaceOr404 } from './limits-routes.js'

/** Longest landing-page title the control plane accepts (a planted instruction fits many times over). */
export const LANDING_PAGE_TITLE_MAX = 2000

const titleBody = z.strictObject({
  title: z.string('must be a string or null').min(1, 'must be a non-empty string').max(LANDING_PAGE_TITLE_MAX, `must be at most ${LANDING_PAGE_TITLE_MAX} characters`).nullable(),
})

/**
 * A workspace's landing pages as the control plane sees them (issue 20): `GET
 * /_sandbox/workspaces/{id}/landing-pages` (the list `GET /api/v1/landing-pages` answers) and `PATCH
 * …/landing-pages/{page_id}` `{title}` to set a page's title (`null` restores the generated one).
 * The title lives in the workspace record, so REST and MCP (hosted and stdio) both show it.
 */
export function landingPageControlRoutes(ctx: AppContext): Route[] {
  const { deps } = ctx
  const list = (id: string) => {
    const landing_pages = listLandingPages(deps, workspaceOr404(deps.store, id).id)
    return { workspace_id: id, landing_pages, count: landing_pages.length }
  }
  return [
    { method: 'get', path: '/workspaces/:id/landing-pages', handler: (req) => ({ body: list(param(req, 'id')) }) },
    {
      method: 'patch',
      path: '/workspaces/:id/landing-pages/:page_id',
      handler: (req) => {
        const body = parseInput(titleBody, req.body)
        const workspace = workspaceOr404(deps.store, param(req, 'id'))
        return { body: setLandingPageTitle(deps, workspace.id, param(req, 'page_id'), body.title) }
      },
    },
  ]
}
