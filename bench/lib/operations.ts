import type { Target } from './load.js'
import type { Pair } from '../sections/compare.js'
import { AUTH } from './servers.js'

/** URLs of one running server: the sandbox has two hosts, Prism one that serves every path. */
export interface Hosts {
  baseUrl: string
  apiUrl: string
  /** The server's process id (CPU time per request). */
  pid?: number
  /** The admin token of a sandbox's control plane (its `--json` banner's `admin_token`); none for Prism. */
  adminToken?: string | null
}

const json = (value: unknown) => JSON.stringify(value)

/** `POST {base_url}/api/v1/tools/run` with a Google script and its CLI-style args (DISP-01). */
export function runScript(hosts: Hosts, script: string, args: string[], status = 200, headers: Record<string, string> = {}): Target {
  return { url: `${hosts.baseUrl}/api/v1/tools/run`, method: 'POST', headers: { ...AUTH, ...headers }, body: json({ script_name: script, args, platform: 'google' }), status, pid: hosts.pid }
}

/** Alternates between two budgets so every request is a real change (never a no-op). */
export function budgetChange(hosts: Hosts, campaignId: string): Target {
  return {
    url: `${hosts.baseUrl}/api/v1/tools/run`,
    method: 'POST',
    headers: AUTH,
    body: (n) => json({ script_name: 'update_campaign_budget', args: ['--campaign-id', campaignId, '--daily-budget', String(n % 2 ? 51 : 50)], platform: 'google' }),
    status: 200,
    pid: hosts.pid,
  }
}

/** Enabling a campaign is held for review under the default policy (GATE-03): 202 + audit entry. */
export function heldWrite(hosts: Hosts, campaignId: string, headers: Record<string, string> = {}): Target {
  return runScript(hosts, 'enable_campaign', ['--campaign-id', campaignId], 202, headers)
}

/** Read path: the dispatcher's list_campaigns and the backend list, each vs Prism's mock. */
export function readPairs(sandbox: Hosts, prism: Hosts): Pair[] {
  return [
    { id: 'tools_run_list_campaigns', label: 'POST /api/v1/tools/run list_campaigns', sandbox: runScript(sandbox, 'list_campaigns', []), prism: runScript(prism, 'list_campaigns', []) },
    { id: 'get_v1_campaigns', label: 'GET /v1/campaigns', sandbox: get(sandbox, '/v1/campaigns'), prism: get(prism, '/v1/campaigns') },
  ]
}

/** Durable write path: a held write and an immediate budget change, each vs Prism's mock. */
export function writePairs(sandbox: Hosts, prism: Hosts, campaignId: string): Pair[] {
  return [
    { id: 'held_write', label: 'held write (202, audit on disk)', sandbox: heldWrite(sandbox, campaignId), prism: heldWrite(prism, campaignId, { prefer: 'code=202' }) },
    { id: 'budget_change', label: 'budget change (200, executed, on disk)', sandbox: budgetChange(sandbox, campaignId), prism: budgetChange(prism, campaignId) },
  ]
}

function get(hosts: Hosts, path: string): Target {
  return { url: `${hosts.apiUrl}${path}`, method: 'GET', headers: AUTH, status: 200, pid: hosts.pid }
}

/** The id of the first campaign of the bench world (from the sandbox's own list). */
export async function firstCampaignId(sandbox: Hosts): Promise<string> {
  const res = await fetch(`${sandbox.apiUrl}/v1/campaigns`, { headers: AUTH, signal: AbortSignal.timeout(10_000) })
  if (!res.ok) throw new Error(`GET /v1/campaigns answered ${res.status}: ${(await res.text()).slice(0, 300)}`)
  const body = (await res.json()) as { campaigns?: Array<{ campaign_id?: string; id?: string }> }
  const first = body.campaigns?.[0]
  const id = first?.campaign_id ?? first?.id
  if (!id) throw new Error('GET /v1/campaigns listed no campaign in the bench world')
  return id
}
