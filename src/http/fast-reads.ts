import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import type { AppContext } from './context.js'
import { authenticate, authorize, markUsed } from '../domain/access.js'
import { takeToken } from '../domain/rate-limits.js'
import { readCredential } from './credentials.js'
import { FastExchange, fastPathAllowed } from './fast-path.js'
import type { CampaignListBody } from './routes/campaigns.js'
import { campaignListBody, LIST_PARAMS, LIST_SCOPE, parseListQuery, requireGoogle } from './routes/campaigns.js'

const LIST_PATH = '/v1/campaigns'

/**
 * The api host's request listener: a plain, successful `GET /v1/campaigns` (REST-01) is answered
 * without express, by the same pieces the express route uses (credentials, authenticate/authorize,
 * rate limits, campaign view, journal entry builder), because express's per-request work was most
 * of the read path's cost (bench/README.md). Everything else goes to `app`: other routes and
 * methods, unknown or repeated query parameters, a request body or conditional headers, any active
 * fault rule, and every request that would be refused. The refusal checks run before anything
 * changes, so express then answers exactly as if it had seen the request first.
 */
export function withFastReads(ctx: AppContext, app: RequestListener): RequestListener {
  const texts = new ListTexts()
  return (req, res) => {
    if (!serveList(ctx, texts, req, res)) app(req, res)
  }
}

function serveList(ctx: AppContext, texts: ListTexts, req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? ''
  const mark = url.indexOf('?')
  if (req.method !== 'GET' || (mark === -1 ? url : url.slice(0, mark)) !== LIST_PATH) return false
  if (req.headers['content-length'] !== undefined || !fastPathAllowed(ctx, req)) return false
  const { deps } = ctx
  // express 5's default ("simple") query parser is node:querystring.
  const query = parseQuery(mark === -1 ? '' : url.slice(mark + 1))
  if (!Object.entries(query).every(([name, value]) => LIST_PARAMS.has(name) && typeof value === 'string')) return false
  const exchange = new FastExchange(ctx, { host: 'api', path: LIST_PATH, query, req, res })
  let actor
  let parsed
  try {
    parsed = parseListQuery({ ...query })
    actor = authorize(deps, authenticate(deps, readCredential(req, 'resource')), LIST_SCOPE)
    requireGoogle(parsed)
    // Last check: it throws before taking anything, and takes the tokens when it passes.
    takeToken(deps, actor)
  } catch {
    return false
  }
  markUsed(deps, actor)
  const body = campaignListBody(deps, actor.workspace.id, parsed)
  exchange.replyAfterCommit({ body }, texts.of(`${actor.workspace.id}|${parsed.status}|${parsed.name}|${parsed.page}|${parsed.limit}`, body))
  return true
}

/**
 * The JSON text of recent list bodies, reused while a body is the same: same totals and page, same
 * dates, and the very same row objects (rows are kept while their metrics stay put, see
 * `campaignRow`), so serialising, most of a repeated list's cost, happens once per change.
 */
class ListTexts {
  readonly #kept = new Map<string, { body: CampaignListBody; text: string }>()

  of(key: string, body: CampaignListBody): string {
    const kept = this.#kept.get(key)
    if (kept && sameList(kept.body, body)) return kept.text
    const text = JSON.stringify(body)
    // Bounded: one entry per workspace and filter combination actually polled.
    if (this.#kept.size >= 1_000) this.#kept.clear()
    this.#kept.set(key, { body, text })
    return text
  }
}

function sameList(a: CampaignListBody, b: CampaignListBody): boolean {
  return a.total === b.total && a.page === b.page && a.limit === b.limit && a.has_more === b.has_more &&
    a.date_range.start_date === b.date_range.start_date && a.date_range.end_date === b.date_range.end_date &&
    a.campaigns.length === b.campaigns.length && a.campaigns.every((row, i) => row === b.campaigns[i])
}
