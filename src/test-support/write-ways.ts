import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { TestSandbox } from './http.js'
import { KEYS, startSandbox } from './http.js'
import { call as callTool, connectHttp } from '../mcp/mcp-test-support.js'
import { CATALOG, findEntry } from '../domain/catalog.js'
import { MCP_TOOLS } from '../mcp/tool-table.js'
import type { CatalogEntry } from '../domain/catalog.js'

/**
 * Every way of performing every gated write of the catalog (sandbox decision GATE-02): the
 * dispatcher on both hosts and MCP `run_tool` under each script name, the REST routes and the MCP
 * tools. Each way answers the `status` of the write (`blocked`, `pending_review`, …).
 */
const img = 'https://cdn.example.test/a.png'
export const ARGS: Record<string, (ids: Ids) => string[]> = {
  pause_campaign: (ids) => ['--campaign-id', ids.enabled],
  google_ads_pause_campaign: (ids) => ['--campaign-id', ids.enabled, '--action', 'pause'],
  enable_campaign: (ids) => ['--campaign-id', ids.paused],
  remove_campaign: (ids) => ['--campaign-id', ids.enabled],
  update_campaign_budget: (ids) => ['--campaign-id', ids.enabled, '--daily-budget', '75'],
  google_ads_create_search_campaign: () => ['--campaign-name', 'S', '--daily-budget', '40', '--final-url', 'https://acme.test', '--headline', 'a', '--headline', 'b', '--headline', 'c', '--description', 'd', '--description', 'e'],
  google_ads_create_display_campaign: () => ['--campaign-name', 'D', '--daily-budget', '20', '--business-name', 'Acme', '--final-url', 'https://acme.test', '--landscape-image', img, '--square-image', img, '--headline', 'H', '--description', 'D'],
  google_ads_create_pmax_campaign: () => ['--campaign-name', 'P', '--daily-budget', '30', '--business-name', 'Acme', '--final-url', 'https://acme.test', '--long-headline', 'L',
    '--landscape-image-url', img, '--square-image-url', img, '--logo-url', img, '--headline', 'a', '--headline', 'b', '--headline', 'c', '--description', 'd', '--description', 'e'],
  google_ads_add_keywords: () => ['--ad-group-id', '77', '--keyword', 'tent'],
  google_ads_add_negative_keywords: (ids) => ['--campaign-id', ids.enabled, '--keywords', 'free,cheap'],
  google_ads_create_conversion: () => ['--name', 'Booked call', '--category', 'LEAD'],
  google_ads_upload_image_asset: () => ['--image-url', img, '--asset-name', 'Hero'],
  google_ads_create_customer_match: () => ['--name', 'Buyers', '--hashed-emails', 'a'.repeat(64)],
}

export interface Ids { enabled: string; paused: string }
/** One way of performing a write: the surface, which catalog entry it runs, and how to send it. */
export interface Way {
  surface: 'base dispatcher' | 'api dispatcher' | 'MCP run_tool' | 'REST' | 'MCP tool'
  label: string
  entry: CatalogEntry
  send(ids: Ids): Promise<string | undefined>
}

export const GATED = CATALOG.filter((e) => e.kind === 'write' && e.gated !== false)
export const EXECUTABLE = GATED.filter((e) => e.executable)
export const targetOf = (e: CatalogEntry) => `${e.operation}/${e.resource ?? e.name}`
/** Every name of an entry: canonical, aliases, MCP tool. */
export const names = (e: CatalogEntry) => [...new Set([e.name, ...e.aliases, ...(e.mcp_tool ? [e.mcp_tool] : [])])]
const entryNamed = (name: string) => CATALOG.find((e) => e.name === name) as CatalogEntry


const statusOf = (answer: { body: any }) => answer.body?.status as string | undefined

/** Campaign ids of `ws_acme` the ways act on. */
export async function campaignIds(sb: TestSandbox): Promise<Ids> {
  const first = async (status: string) => (await sb.api('GET', `/v1/campaigns?status=${status}`, { key: KEYS.owner })).body.campaigns[0].campaign_id as string
  return { enabled: await first('ENABLED'), paused: await first('PAUSED') }
}

/** The ways, sent with the owner key of `ws_acme` through `sb` and the MCP client `mcp`. */
export function writeWays(sb: TestSandbox, mcp: Client): Way[] {
  const out: Way[] = []
  for (const entry of EXECUTABLE) {
    const platform = entry.platform_routed ? 'google' : undefined
    for (const name of [entry.name, ...entry.aliases]) {
      const body = (i: Ids) => ({ script_name: name, args: ARGS[entry.name](i), ...(platform ? { platform } : {}) })
      out.push({ surface: 'base dispatcher', label: `base dispatcher ${name}`, entry, send: async (i) => statusOf(await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: body(i) })) })
      out.push({ surface: 'api dispatcher', label: `api dispatcher ${name}`, entry, send: async (i) => statusOf(await sb.api('POST', '/v1/tools/run', { key: KEYS.owner, body: body(i) })) })
      out.push({ surface: 'MCP run_tool', label: `MCP run_tool ${name}`, entry, send: async (i) => (await callTool(mcp, 'run_tool', body(i))).structuredContent?.status })
    }
  }
  out.push({ surface: 'REST', label: 'REST POST /v1/campaigns/{id}/pause', entry: entryNamed('pause_campaign'), send: async (i) => statusOf(await sb.api('POST', `/v1/campaigns/${i.enabled}/pause`, { key: KEYS.owner, body: {} })) })
  out.push({ surface: 'REST', label: 'REST PATCH /v1/campaigns/{id}/budget', entry: entryNamed('update_campaign_budget'), send: async (i) => statusOf(await sb.api('PATCH', `/v1/campaigns/${i.enabled}/budget`, { key: KEYS.owner, body: { daily_budget: 75 } })) })
  // Every MCP tool of the table that dispatches a write, whatever its name.
  for (const tool of MCP_TOOLS.filter((t) => t.name !== 'run_tool')) {
    const probe = tool.toCall({ platform: 'google', campaign_id: 'probe', daily_budget: 75 })
    const entry = probe.kind === 'dispatch' ? findEntry(probe.script) : undefined
    if (!entry || entry.kind !== 'write') continue
    const input = (i: Ids) => Object.fromEntries(Object.entries({ campaign_id: entry.operation === 'enable' ? i.paused : i.enabled, daily_budget: 75 }).filter(([k]) => k in tool.input))
    out.push({ surface: 'MCP tool', label: `MCP tool ${tool.name}`, entry, send: async (i) => (await callTool(mcp, tool.name, input(i))).structuredContent?.status })
  }
  return out
}

/** A fresh sandbox, the owner's hosted MCP session on it, its campaign ids and every way of every write; `close` ends both. */
export async function openWriteWays(): Promise<{ sb: TestSandbox; mcp: Client; ids: Ids; ways: Way[]; close: () => Promise<void> }> {
  const sb = await startSandbox()
  const mcp = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': KEYS.owner } })
  const ids = await campaignIds(sb)
  return {
    sb, mcp, ids, ways: writeWays(sb, mcp),
    close: async () => {
      await mcp.close()
      await sb.close()
    },
  }
}
