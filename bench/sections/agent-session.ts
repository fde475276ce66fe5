import autocannon from 'autocannon'
import type { Hosts } from '../lib/operations.js'
import type { LoadSettings } from './compare.js'
import { AUTH } from '../lib/servers.js'
import { startFloor } from '../lib/floor.js'
import { openWindow, perRequest } from '../lib/machine-share.js'
import type { Spread } from '../lib/stats.js'
import { medianOf } from '../lib/stats.js'
import { othersNote, ratiosOf, roundOf } from './compare.js'

/** One side of the agent-session row. */
export interface SessionFigures {
  rps: number
  p50: number
  p99: number
  /** Answers outside 2xx and 409, socket errors and timeouts. */
  failures: number
  cpu_ms_per_request: number
  /** Cores other processes on the machine used during the run (`openWindow`); null off Linux. */
  others_cores: number | null
  /** Answers by status over the whole run (both sides should show 200 and 202). */
  statuses: Record<string, number>
}

export interface AgentSessionRow {
  label: string
  /** Connections (one agent each, each on its own campaign). */
  agents: number
  sandbox: SessionFigures
  prism: SessionFigures
  /** Median over interleaved rounds of sandbox req/s ÷ Prism req/s, back to back. */
  ratio: number
  ratio_spread: Spread
  /** Median over rounds of Prism CPU-ms/req ÷ sandbox CPU-ms/req. */
  cpu_ratio: number
  runs: Array<{ sandbox: SessionFigures; prism: SessionFigures; ratio: number; cpu_ratio: number; loadavg: number }>
  /**
   * The same session against a bare node:http server answering every request with one fixed body
   * (a held write's `audit_id`, so the loop runs as it does against the sandbox): what this machine
   * and the load generator allow for this mix at all. Median of up to 3 runs after the rounds.
   */
  floor?: SessionFigures
}

const FIELDS = ['rps', 'p50', 'p99', 'failures', 'cpu_ms_per_request', 'others_cores'] as const
const RUN = '/api/v1/tools/run'

/**
 * Issue 17 item 4's mixed "agent session": every connection is one agent looping over what an
 * agent does on its own live campaign — list campaigns (charged read), pull a week of performance
 * (charged read), change the budget and pause it (immediate durable writes), ask to enable it
 * again (held, 202), a person approves that write on the control plane (the enable runs), the
 * agent reads the audit entry. Prism's mock
 * gets the same requests (`Prefer: code=202` for the held write). Base host only, so one
 * autocannon instance drives each side.
 */
export async function measureAgentSession(options: { sandbox: Hosts; prism: Hosts; settings: LoadSettings; log: (line: string) => void; prismHeld?: Record<string, string>; rate?: number }): Promise<AgentSessionRow> {
  const { sandbox, prism, settings, log, prismHeld = { prefer: 'code=202' }, rate } = options
  const campaigns = await campaignIds(sandbox)
  const agents = Math.min(settings.connections, campaigns.length)
  const sides = { sandbox: { hosts: sandbox, held: {} }, prism: { hosts: prism, held: prismHeld } }
  if (settings.warmup > 0) for (const side of Object.values(sides)) await session(side.hosts, campaigns, { agents, seconds: settings.warmup, held: side.held, rate })
  const runs: AgentSessionRow['runs'] = []
  for (let i = 0; i < settings.runs; i++) {
    const order = i % 2 === 0 ? (['sandbox', 'prism'] as const) : (['prism', 'sandbox'] as const)
    const got: Partial<Record<'sandbox' | 'prism', SessionFigures>> = {}
    for (const name of order) got[name] = await session(sides[name].hosts, campaigns, { agents, seconds: settings.duration, held: sides[name].held, rate })
    const run = roundOf(got.sandbox!, got.prism!)
    runs.push(run)
    log(`  agent_session round ${i + 1}/${settings.runs}: sandbox ${Math.round(run.sandbox.rps)} req/s p99 ${run.sandbox.p99} ms ${run.sandbox.cpu_ms_per_request} cpu-ms/req, prism ${Math.round(run.prism.rps)} req/s p99 ${run.prism.p99} ms ${run.prism.cpu_ms_per_request} cpu-ms/req: ${run.ratio}× (load ${run.loadavg}${othersNote(run.sandbox, run.prism)})`)
  }
  const merge = (side: 'sandbox' | 'prism'): SessionFigures => ({
    ...medianOf(runs.map((r) => r[side]), FIELDS),
    statuses: runs.reduce<Record<string, number>>((all, r) => {
      for (const [code, n] of Object.entries(r[side].statuses)) all[code] = (all[code] ?? 0) + n
      return all
    }, {}),
  })
  const floor = await floorOf(campaigns, { agents, seconds: settings.duration, runs: Math.min(settings.runs, 3) })
  log(`  agent_session floor (bare node:http, one fixed answer): ${Math.round(floor.rps)} req/s p99 ${floor.p99} ms`)
  return { label: 'agent session (reads, charged reads, budget change, pause, held enable, approval, audit read)', agents, sandbox: merge('sandbox'), prism: merge('prism'), ...ratiosOf(runs), runs, floor }
}

// The floor answers everything with one small body that names an audit entry, as a held write's 202 does.
const FLOOR_BODY = JSON.stringify({ status: 'pending_review', audit_id: 'aud_floor', sandbox: true })

async function floorOf(campaigns: string[], options: { agents: number; seconds: number; runs: number }): Promise<SessionFigures> {
  const floor = await startFloor(FLOOR_BODY)
  try {
    const runs: SessionFigures[] = []
    for (let i = 0; i < options.runs; i++) runs.push(await session(floor, campaigns, { agents: options.agents, seconds: options.seconds, held: {} }))
    return { ...medianOf(runs, FIELDS), statuses: runs[0].statuses }
  } finally {
    await floor.stop()
  }
}

/** autocannon's per-loop context: the campaign this loop works on, and the held write to approve. */
type Agent = { campaign?: string; n?: number; audit?: string }

/**
 * One side's session: `agents` connections loop the seven requests for `seconds` (exported for
 * profiling drivers). `rate` caps the offered load (req/s over all agents): at one fixed rate two
 * builds batch their group commits alike, so their CPU per answer compares the work alone.
 */
export async function session(hosts: Hosts, campaigns: string[], options: { agents: number; seconds: number; held: Record<string, string>; rate?: number }): Promise<SessionFigures> {
  let next = 0
  const json = (value: unknown) => JSON.stringify(value)
  const mine = (agent: Agent) => (agent.campaign ??= campaigns[next++ % campaigns.length])
  const run = (body: (agent: Agent) => unknown, headers: Record<string, string> = {}) => ({
    method: 'POST' as const, path: RUN, headers: { ...AUTH, ...headers, 'content-type': 'application/json' },
    setupRequest: (req: Record<string, unknown>, agent: Agent) => ({ ...req, body: json(body(agent)) }),
  })
  const requests = [
    run(() => ({ script_name: 'list_campaigns', args: [], platform: 'google' })),
    run((a) => ({ script_name: 'pull_google_ads', args: ['--days', '7', '--campaign-id', mine(a)], platform: 'google' })),
    run((a) => ({ script_name: 'update_campaign_budget', args: ['--campaign-id', mine(a), '--daily-budget', String((a.n = (a.n ?? 0) + 1) % 2 ? 51 : 50)], platform: 'google' })),
    // Paused first (an immediate write), so the approved enable below runs for real instead of failing on an ENABLED campaign.
    run((a) => ({ script_name: 'pause_campaign', args: ['--campaign-id', mine(a)], platform: 'google' })),
    {
      ...run((a) => ({ script_name: 'enable_campaign', args: ['--campaign-id', mine(a)], platform: 'google' }), options.held),
      onResponse: (_status: number, body: string, agent: Agent) => {
        agent.audit = auditIdOf(body)
      },
    },
    {
      // The person's approval: the control plane's admin token (Prism ignores it).
      method: 'POST' as const, headers: { 'content-type': 'application/json', ...(hosts.adminToken ? { 'x-sandbox-admin': hosts.adminToken } : {}) }, body: json({ reviewer: 'Bench Reviewer' }),
      setupRequest: (req: Record<string, unknown>, agent: Agent) => ({ ...req, path: `/_sandbox/reviews/${encodeURIComponent(agent.audit ?? 'aud_none')}/approve` }),
    },
    { method: 'GET' as const, headers: AUTH, setupRequest: (req: Record<string, unknown>, agent: Agent) => ({ ...req, path: `/api/v1/audit/${encodeURIComponent(agent.audit ?? 'aud_none')}` }) },
  ]
  const window = openWindow(hosts.pid)
  const result = await autocannon({ url: hosts.baseUrl, connections: options.agents, duration: options.seconds, timeout: 10, requests: requests as never, ...(options.rate ? { overallRate: options.rate } : {}) })
  const { serverMs, othersCores } = window.end()
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]))
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0)
  // autocannon starts each loop with a fresh context, so two agents now and then pick the same campaign: their held
  // enables share one pending entry and the slower approval gets 409 REVIEW_NOT_PENDING — a reviewer race, not an error.
  const good = Object.entries(statuses).filter(([code]) => code.startsWith('2') || code === '409').reduce((a, [, n]) => a + n, 0)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: answered - good + result.errors + result.timeouts + (answered === 0 ? 1 : 0),
    cpu_ms_per_request: perRequest(serverMs, answered) ?? 0,
    others_cores: othersCores,
    statuses,
  }
}

function auditIdOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { audit_id?: unknown }).audit_id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/** The bench world's live campaign ids (a removed one refuses every write with CONFLICT): one per agent or worker where there are enough. */
export async function campaignIds(sandbox: Hosts): Promise<string[]> {
  const res = await fetch(`${sandbox.apiUrl}/v1/campaigns?limit=100`, { headers: AUTH, signal: AbortSignal.timeout(10_000) })
  const body = (await res.json()) as { campaigns?: Array<{ campaign_id: string; status?: string }> }
  const ids = (body.campaigns ?? []).filter((c) => c.status !== 'REMOVED').map((c) => c.campaign_id)
  if (ids.length === 0) throw new Error('the bench world listed no campaign for the agent session')
  return ids
}
