import { CATALOG } from '../domain/catalog.js'
import { MCP_TOOLS } from '../mcp/tool-table.js'
import type { FuzzTarget } from './target.js'

/** The multi-workspace world's pinned keys: an agency (parent) and two clients (children), one user. */
export const PINNED = {
  ws_agency: 'svc_test_alexAgency0000000000000000000000',
  ws_client_a: 'svc_test_alexClientA000000000000000000000',
  ws_client_b: 'svc_test_alexClientB000000000000000000000',
} as const
export type WorkspaceId = keyof typeof PINNED

/** What one workspace owns that another must never reach: ids to try, and text that would betray it. */
export interface Owned {
  campaign: string
  audit: string
  key: string
  connectionRequest: string
  account: string
  /** Names only this workspace's data carries (campaign, account and workspace names). */
  secrets: string[]
}

async function json(target: FuzzTarget, key: string, method: string, path: string, body: unknown): Promise<any> {
  const res = await target.send({ host: 'base', method, path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' }, body: Buffer.from(JSON.stringify(body)) })
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`)
  return JSON.parse(res.text)
}

/**
 * Gives every workspace of the multi-workspace world one of each id-bearing thing, through the public
 * API with its own pinned key: an account (the agency connects one through a link), a held write's
 * audit entry, a child key and a connection request.
 */
export async function seedOwned(target: FuzzTarget): Promise<Record<WorkspaceId, Owned>> {
  const store = target.sb.ctx.deps.store
  const link = await json(target, PINNED.ws_agency, 'POST', '/api/v1/connections/start', { platform: 'google' })
  await json(target, PINNED.ws_agency, 'POST', new URL(link.url).pathname, {})
  const owned = {} as Record<WorkspaceId, Owned>
  for (const [ws, key] of Object.entries(PINNED) as Array<[WorkspaceId, string]>) {
    const campaigns = store.campaigns.filter((c) => c.workspace_id === ws)
    const connection = store.connections.filter((c) => c.workspace_id === ws)[0]
    const held = await json(target, key, 'POST', '/api/v1/tools/run', { script_name: 'update_campaign_budget', args: ['--campaign-id', campaigns[0].id, '--daily-budget', '50000'], platform: 'google' })
    const child = await json(target, key, 'POST', '/api/v1/keys', { name: `matrix child of ${ws}`, scopes: ['campaigns:read'] })
    const request = await json(target, key, 'POST', '/api/v1/connections/request', { platform: 'google' })
    owned[ws] = {
      campaign: campaigns[0].id,
      audit: held.audit_id,
      key: child.id,
      connectionRequest: request.request_id,
      account: connection.account_id,
      secrets: [...campaigns.map((c) => c.campaign_name), connection.account_name, store.workspaces.get(ws)!.name],
    }
  }
  return owned
}

/** One probe: a route given a foreign id. `surface` names how it is reached. */
export interface Probe {
  surface: 'rest-base' | 'rest-api' | 'dispatcher-base' | 'dispatcher-api' | 'mcp'
  what: string
  host: 'base' | 'api'
  method: string
  path: string
  body?: unknown
  /** For MCP: the tool and its arguments. */
  tool?: { name: string; arguments: Record<string, unknown> }
}

/** Every dispatchable script that takes an id flag, with the flags it needs besides the id. */
function idScripts(): Array<{ script: string; flag: '--campaign-id' | '--account-id'; extra: string[] }> {
  return CATALOG.filter((e) => e.executable).flatMap((e) => (['--campaign-id', '--account-id'] as const)
    .filter((flag) => e.flags.some((f) => f.name === flag))
    .map((flag) => ({ script: e.name, flag, extra: e.flags.filter((f) => f.required && f.name !== flag).flatMap((f) => [f.name, sampleValue(f)]) })))
}

function sampleValue(f: { type: string; choices?: readonly string[]; bounds?: { min?: number } }): string {
  if (f.choices?.length) return f.choices[0]
  if (f.type === 'number' || f.type === 'integer') return String(Math.max(f.bounds?.min ?? 1, 10))
  if (f.type === 'list') return 'a,b'
  if (f.type === 'date') return '2026-01-01'
  if (f.type === 'url') return 'https://example.test/landing'
  if (f.type === 'boolean') return 'true'
  return 'matrix'
}

/** The generated matrix: every id-taking route on every surface, aimed at `foreign`'s ids. */
export function probesFor(foreign: Owned): Probe[] {
  const rest: Probe[] = [
    { surface: 'rest-base', what: 'GET audit entry', host: 'base', method: 'GET', path: `/api/v1/audit/${foreign.audit}` },
    { surface: 'rest-base', what: 'approve held write', host: 'base', method: 'POST', path: `/api/v1/audit/${foreign.audit}/approve`, body: {} },
    { surface: 'rest-base', what: 'reject held write', host: 'base', method: 'POST', path: `/api/v1/audit/${foreign.audit}/reject`, body: { reason: 'matrix' } },
    { surface: 'rest-base', what: 'revoke key', host: 'base', method: 'DELETE', path: `/api/v1/keys/${foreign.key}` },
    { surface: 'rest-base', what: 'connection request', host: 'base', method: 'GET', path: `/api/v1/connections/requests/${foreign.connectionRequest}` },
    { surface: 'rest-api', what: 'campaign', host: 'api', method: 'GET', path: `/v1/campaigns/${foreign.campaign}` },
    { surface: 'rest-api', what: 'campaign metrics', host: 'api', method: 'GET', path: `/v1/campaigns/${foreign.campaign}/metrics` },
    { surface: 'rest-api', what: 'pause campaign', host: 'api', method: 'POST', path: `/v1/campaigns/${foreign.campaign}/pause`, body: {} },
    { surface: 'rest-api', what: 'campaign budget', host: 'api', method: 'PATCH', path: `/v1/campaigns/${foreign.campaign}/budget`, body: { daily_budget: 10 } },
  ]
  const dispatcher = idScripts().flatMap(({ script, flag, extra }) => (['base', 'api'] as const).map((host): Probe => ({
    surface: `dispatcher-${host}`, what: `${script} ${flag}`, host, method: 'POST', path: host === 'base' ? '/api/v1/tools/run' : '/v1/tools/run',
    body: { script_name: script, args: [flag, flag === '--campaign-id' ? foreign.campaign : foreign.account, ...extra], platform: 'google' },
  })))
  const mcp = MCP_TOOLS.filter((t) => 'campaign_id' in t.input).map((t): Probe => ({
    surface: 'mcp', what: t.name, host: 'base', method: 'POST', path: '/mcp',
    tool: { name: t.name, arguments: { campaign_id: foreign.campaign, ...(t.name === 'update_campaign_budget' ? { daily_budget: 10 } : {}) } },
  }))
  mcp.push({ surface: 'mcp', what: 'run_tool pause_campaign', host: 'base', method: 'POST', path: '/mcp',
    tool: { name: 'run_tool', arguments: { script_name: 'pause_campaign', args: ['--campaign-id', foreign.campaign], platform: 'google' } } })
  return [...rest, ...dispatcher, ...mcp]
}
