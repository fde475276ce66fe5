import type { LoadFigures, Target } from '../lib/load.js'
import type { Hosts } from '../lib/operations.js'
import type { LoadSettings } from './compare.js'
import { fire, probe } from '../lib/load.js'
import { budgetChange, heldWrite } from '../lib/operations.js'
import { AUTH } from '../lib/servers.js'
import type { Spread } from '../lib/stats.js'
import { median, medianOf, ratio, spreadOf } from '../lib/stats.js'

/** Issue 17 item 3: the same retried held write whose pending entry is older, or newer, than the history. */
export interface HeldHistoryRow {
  /** Budget changes (audit rows) written between the two pending entries. */
  history_rows: number
  /** `enable_campaign` on an ENABLED campaign, its pending entry queued after the history. */
  enabled: Pick<LoadFigures, 'rps' | 'p50' | 'p99' | 'failures' | 'cpu_ms_per_request'>
  /** `enable_campaign` on a PAUSED campaign, its pending entry queued before the history. */
  paused: HeldHistoryRow['enabled']
  /** Median over runs of PAUSED req/s ÷ ENABLED req/s, measured back to back (issue 17: ≤ 1.2). */
  ratio: number
  /** Median over runs of ENABLED ÷ PAUSED server CPU ms per request: the steadier figure on a busy machine. */
  cpu_ratio: number
  /** How the per-round CPU ratios spread. */
  cpu_ratio_spread: Spread
  runs: Array<{ enabled: LoadFigures; paused: LoadFigures; ratio: number; cpu_ratio: number }>
}

const FIELDS = ['rps', 'p50', 'p99', 'failures', 'cpu_ms_per_request'] as const

/**
 * Reproduces issue 17's "held enable on an ENABLED campaign runs at a fifth of a PAUSED one": the
 * PAUSED campaign's held write is queued first, then budget changes write history (3 000 rows per
 * second of `duration`, at most 30 000: the same history whatever the machine's speed), then the
 * ENABLED campaign's held write is queued. Both are then retried under load (each retry answers
 * its pending entry; nothing new is queued), alternating which goes first.
 * Before the fix the lookup scanned the audit from its oldest row, so the entry behind the history
 * was slow, whatever the campaign's status.
 */
export async function measureHeldHistory(options: { sandbox: Hosts; settings: LoadSettings; log: (line: string) => void }): Promise<HeldHistoryRow> {
  const { sandbox, settings, log } = options
  const { enabled, paused } = await pickCampaigns(sandbox)
  const early = heldWrite(sandbox, paused)
  await probe(early)
  const historyRows = await writeHistory(budgetChange(sandbox, enabled), { connections: settings.connections, rows: Math.min(30_000, settings.duration * 3_000) })
  const late = heldWrite(sandbox, enabled)
  await probe(late)
  const load = { connections: settings.connections, seconds: settings.duration }
  if (settings.warmup > 0) {
    await fire(late, { ...load, seconds: settings.warmup })
    await fire(early, { ...load, seconds: settings.warmup })
  }
  const runs: HeldHistoryRow['runs'] = []
  for (let i = 0; i < settings.runs; i++) {
    const enabledFirst = i % 2 === 0
    const first = await fire(enabledFirst ? late : early, load)
    const second = await fire(enabledFirst ? early : late, load)
    const [e, p] = enabledFirst ? [first, second] : [second, first]
    runs.push({ enabled: e, paused: p, ratio: ratio(p.rps, e.rps), cpu_ratio: ratio(e.cpu_ms_per_request ?? Number.NaN, p.cpu_ms_per_request ?? 0) })
    log(`  held write after ${historyRows} rows of history, run ${i + 1}/${settings.runs}: ENABLED ${Math.round(e.rps)} req/s ${e.cpu_ms_per_request} cpu-ms/req, PAUSED ${Math.round(p.rps)} req/s ${p.cpu_ms_per_request} cpu-ms/req`)
  }
  return {
    history_rows: historyRows,
    enabled: medianOf(runs.map((r) => r.enabled), FIELDS),
    paused: medianOf(runs.map((r) => r.paused), FIELDS),
    ratio: median(runs.map((r) => r.ratio)),
    cpu_ratio: median(runs.map((r) => r.cpu_ratio)),
    cpu_ratio_spread: spreadOf(runs.map((r) => r.cpu_ratio)),
    runs,
  }
}

/** Fires `target` one second at a time until at least `rows` answers were the expected status. */
async function writeHistory(target: Target, options: { connections: number; rows: number }): Promise<number> {
  let rows = 0
  while (rows < options.rows) {
    const figures = await fire(target, { connections: options.connections, seconds: 1 })
    const good = figures.statuses[String(target.status)] ?? 0
    if (good === 0) throw new Error(`history writes answered ${JSON.stringify(figures.statuses)}, not ${target.status}`)
    rows += good
  }
  return rows
}

/** The last ENABLED campaign (the write section holds the first) and the first PAUSED one. */
async function pickCampaigns(sandbox: Hosts): Promise<{ enabled: string; paused: string }> {
  const res = await fetch(`${sandbox.apiUrl}/v1/campaigns?limit=100`, { headers: AUTH, signal: AbortSignal.timeout(10_000) })
  if (!res.ok) throw new Error(`GET /v1/campaigns answered ${res.status}: ${(await res.text()).slice(0, 300)}`)
  const rows = ((await res.json()) as { campaigns?: Array<{ campaign_id: string; status: string }> }).campaigns ?? []
  const enabled = rows.filter((c) => c.status === 'ENABLED').at(-1)?.campaign_id
  const paused = rows.find((c) => c.status === 'PAUSED')?.campaign_id
  if (!enabled || !paused) throw new Error('the bench world needs an ENABLED and a PAUSED campaign')
  return { enabled, paused }
}
