import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import { hashSeed, seededFaker } from './seeded.js'
import { iso } from './durations.js'
import { DAY_MS } from './metrics.js'
import { notFound } from './errors.js'

export interface LandingPage {
  page_id: string
  title: string
  slug: string
  url: string
  custom_domain: string | null
  status: 'PUBLISHED' | 'DRAFT'
  views: number
  conversions: number
  conversion_rate: number
  created_at: string
  updated_at: string
}

/**
 * A workspace's landing pages (DISP-09, `list_landing_pages`), generated from the world seed and
 * the workspace id. Published pages gain views and conversions each sandbox day since creation.
 */
export function listLandingPages(deps: Deps, workspaceId: string): LandingPage[] {
  const faker = seededFaker(hashSeed(deps.store.meta().seed, workspaceId, 'landing-pages'))
  const now = nowIn(deps, workspaceId)
  const name = deps.store.workspaces.get(workspaceId)?.name ?? workspaceId
  const domain = faker.datatype.boolean() ? `go.${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.test` : null
  const count = faker.number.int({ min: 3, max: 5 })
  const overrides = deps.store.workspaces.get(workspaceId)?.landing_pages ?? {}
  const pages: LandingPage[] = Array.from({ length: count }, (_, i) => {
    const title = `${faker.commerce.productAdjective()} ${faker.commerce.product()} ${faker.helpers.arrayElement(['Sale', 'Offer', 'Guide', 'Launch', 'Bundle'])}`
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
    const created = now - faker.number.int({ min: 20, max: 200 }) * DAY_MS
    const published = i === 0 || faker.number.float() < 0.75
    const perDay = faker.number.int({ min: 40, max: 900 })
    const rate = faker.number.float({ min: 0.015, max: 0.09 })
    const days = Math.floor((now - created) / DAY_MS)
    const views = published ? perDay * days : 0
    const conversions = Math.round(views * rate)
    return {
      page_id: `lp_${faker.string.alphanumeric({ length: 10, casing: 'lower' })}`,
      title,
      slug,
      url: `https://${domain ?? 'pages.adops-sandbox.test'}/${slug}`,
      custom_domain: domain,
      status: published ? 'PUBLISHED' : 'DRAFT',
      views,
      conversions,
      conversion_rate: views ? Math.round((conversions / views) * 10_000) / 10_000 : 0,
      created_at: iso(created),
      updated_at: iso(created + faker.number.int({ min: 0, max: Math.max(0, now - created) })),
    }
  })
  // A title set through the control plane (issue 20) replaces the generated one on every surface;
  // slug and URL stay those of the generated page.
  return pages.map((page) => {
    const title = Object.hasOwn(overrides, page.page_id) ? overrides[page.page_id]?.title : undefined
    return typeof title === 'string' ? { ...page, title } : page
  })
}

/**
 * Sets (or with `null` clears) the title of one of the workspace's landing pages, kept in the
 * workspace record so it is exported, imported and cleared by a reset with the rest of the state.
 * An unknown page id is a 404 and changes nothing.
 */
export function setLandingPageTitle(deps: Deps, workspaceId: string, pageId: string, title: string | null): LandingPage {
  const workspace = deps.store.workspaces.get(workspaceId)
  if (!workspace) throw notFound(`Workspace ${workspaceId}`)
  if (!listLandingPages(deps, workspaceId).some((p) => p.page_id === pageId)) throw notFound(`Landing page ${pageId}`)
  const { [pageId]: _old, ...rest } = workspace.landing_pages ?? {}
  deps.store.workspaces.update(workspaceId, { landing_pages: title === null ? rest : { ...rest, [pageId]: { title } } })
  return listLandingPages(deps, workspaceId).find((p) => p.page_id === pageId)!
}
