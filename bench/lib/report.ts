import { cpus, loadavg, platform, release, totalmem } from 'node:os'
import type { ComparisonRow } from '../sections/compare.js'
import type { SizeRow } from '../sections/state-size.js'
import type { DurabilityRow } from '../sections/durability.js'
import type { CatalogRow } from '../sections/catalog.js'
import type { StartRow } from '../sections/start.js'
import type { SuiteRow } from '../sections/suite.js'
import type { HeldHistoryRow } from '../sections/held-history.js'
import type { AgentSessionRow } from '../sections/agent-session.js'
import type { BenchOptions } from './options.js'
import type { Spread } from './stats.js'
import { median, ratio, round } from './stats.js'

export interface Machine {
  cpu: string
  cores: number
  memory_gb: number
  node: string
  os: string
  loadavg_start: number[]
  loadavg_end?: number[]
}

export interface Results {
  generated_at: string
  machine: Machine
  options: Omit<BenchOptions, 'out'>
  prism_spec: { path: string; fallback: boolean; reason?: string }
  read?: ComparisonRow[]
  /** GET /v1/campaigns' body from a bare node:http server (no sandbox): the machine's floor. */
  floor?: { rps: number; p50: number; p99: number; failures: number; cpu_ms_per_request: number }
  write?: ComparisonRow[]
  /** A retried held write on an ENABLED campaign queued after the history vs a PAUSED one queued before it. */
  held_history?: HeldHistoryRow
  /** Issue 17 item 4: one agent per connection looping over reads, charged reads, writes, a held write and its approval. */
  agent_session?: AgentSessionRow
  state_size?: SizeRow[]
  /** The same budget change under `--durability process` and `--durability fsync`. */
  durability?: DurabilityRow[]
  start?: StartRow
  suite?: SuiteRow
  /** Issue 35: serving the 200-tool synthetic catalog (start-up, RSS, tools/list, a simulated read vs a modelled one). */
  catalog?: CatalogRow
  memory: { sandbox_read_peak_rss_mb?: number | null; prism_read_peak_rss_mb?: number | null; sandbox_largest_state_peak_rss_mb?: number | null }
  /** Sections that could not run, with the reason (e.g. an operation not implemented yet). */
  skipped: Record<string, string>
  targets: Target[]
}

export interface Target {
  figure: string
  target: string
  value: string
  met: boolean
}

export function describeMachine(): Machine {
  const list = cpus()
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memory_gb: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    os: `${platform()} ${release()}`,
    loadavg_start: loadavg().map((l) => round(l, 2)),
  }
}

/** The issue's targets, evaluated on the figures that were measured. */
export function evaluateTargets(r: Results): Target[] {
  const out: Target[] = []
  for (const row of r.read ?? []) {
    out.push({ figure: `read ${row.id}: ratio`, target: '≥ 8×', value: ratioValue(row), met: row.ratio >= 8 })
    out.push({ figure: `read ${row.id}: sandbox p99`, target: '< 10 ms', value: `${row.sandbox.p99} ms`, met: row.sandbox.p99 < 10 })
  }
  for (const row of r.write ?? []) out.push({ figure: `write ${row.id}: ratio`, target: '≥ 8×', value: ratioValue(row), met: row.ratio >= 8 })
  const a = r.agent_session
  if (a) out.push({ figure: 'agent session: ratio', target: '≥ 8×', value: ratioValue(a), met: a.ratio >= 8 })
  const h = r.held_history
  // CPU time per request is judged: on a shared machine req/s of two back-to-back runs differ by more than 1.2× from noise alone.
  if (h) out.push({ figure: 'held write behind history: ENABLED ÷ PAUSED CPU-ms/req', target: '≤ 1.2×', value: `${fmt(h.cpu_ratio, '×')}${h.cpu_ratio_spread && h.runs.length > 1 ? ` (${fmt(h.cpu_ratio_spread.min)}–${fmt(h.cpu_ratio_spread.max)} over ${h.runs.length} rounds)` : ''}; req/s PAUSED ÷ ENABLED ${fmt(h.ratio, '×')}`, met: h.cpu_ratio <= 1.2 })
  const sizes = r.state_size ?? []
  const small = sizes[0]
  const large = sizes.at(-1)
  if (small && large && large !== small) {
    const p50 = ratio(large.p50, small.p50)
    out.push({ figure: `write p50 at ${large.audit_records} vs ${small.audit_records} audit rows`, target: '≤ 1.5×', value: `${p50}× (p99 ${ratio(large.p99, small.p99)}×)`, met: p50 <= 1.5 })
  }
  const c = r.catalog
  if (c) {
    // Judged on the load itself (CPU time is robust to a busy machine); the cold-start difference is shown beside it.
    out.push({ figure: `catalog of ${c.tools} tools: start-up added`, target: '≤ 300 ms', value: `load ${fmt(c.load.cpu_ms, ' ms')} CPU (${fmt(c.load.ms, ' ms')} wall); cold start ${fmt(c.start_ms.added, ' ms')} slower`, met: c.load.cpu_ms <= 300 })
    out.push({ figure: `catalog of ${c.tools} tools: RSS added`, target: '≤ 20 MB', value: `load ${fmt(c.load.rss_mb, ' MB')}; RSS once ready ${fmt(c.rss_mb.added, ' MB')} more`, met: c.load.rss_mb <= 20 && c.rss_mb.added <= 20 })
    const floor = c.tools_list_floor_ms ? ` (floor: a bare node:http server sending the same bytes, ${fmt(c.tools_list_floor_ms.p99, ' ms')})` : ''
    out.push({ figure: 'catalog: tools/list p99', target: '≤ 5 ms', value: `${fmt(c.tools_list_ms.p99, ' ms')}${floor}`, met: c.tools_list_ms.p99 <= 5 })
    out.push({ figure: 'catalog: simulated read ÷ modelled read, CPU-ms/req', target: '≤ 1×', value: fmt(c.cpu_ratio, '×'), met: c.cpu_ratio <= 1 })
  }
  if (r.start) out.push({ figure: 'cold start sandbox ÷ Prism', target: '≤ 0.33', value: fmt(r.start.ratio), met: r.start.ratio <= 0.33 })
  if (r.suite?.wall_ms !== undefined && !r.suite.subset) {
    // The time is the target; the kit decides how many scenarios exist, so a short suite is shown, not failed.
    const n = r.suite.scenarios ?? 0
    const note = n < 100 ? ` (the kit has ${n} scenarios; target is for 100+)` : ''
    out.push({ figure: 'conformance suite wall time', target: '≤ 10 s for 100+ scenarios', value: `${round(r.suite.wall_ms / 1000, 1)} s, ${n} scenarios${note}`, met: r.suite.wall_ms <= 10_000 })
  }
  return out
}

/** The share of the machine other processes took during the load rounds, per side and round. */
export function othersDuring(r: Pick<Results, 'read' | 'write' | 'agent_session'>): number[] {
  const rounds: Array<{ sandbox: { others_cores?: number | null }; prism: { others_cores?: number | null } }> = [
    ...[...(r.read ?? []), ...(r.write ?? [])].flatMap((row) => row.runs),
    ...(r.agent_session?.runs ?? []),
  ]
  return rounds.flatMap((round) => [round.sandbox.others_cores, round.prism.others_cores]).filter((n): n is number => typeof n === 'number')
}

/** Above this many cores taken by other processes (median over the rounds), req/s ratios are flagged as compressed. */
export const CONTENDED_CORES = 0.25

/**
 * A line saying how busy the machine was with other work during the load rounds, and a warning
 * when that was enough to compress the req/s ratios (`machine-share.ts` says why).
 */
export function contentionLines(r: Pick<Results, 'read' | 'write' | 'agent_session' | 'machine'>): string[] {
  const others = othersDuring(r)
  if (others.length === 0) return []
  const typical = round(median(others), 2)
  const most = round(Math.max(...others), 2)
  const line = `Other processes used ${typical} of the ${r.machine.cores} cores during the load rounds (median of ${others.length} runs; at most ${most}).`
  if (typical <= CONTENDED_CORES) return [line]
  return [line, `⚠ Contended machine: the sandbox's side of a round needs its server and the load generator each on a core, Prism's only its server, so req/s ratios come out lower than on a quiet machine; "less CPU per answer" is the figure to compare across runs.`]
}

// Medians of an even count average two figures: round again so 4.89 never prints as 4.890000000000001.
const fmt = (n: number | null | undefined, unit = '') => (n === null || n === undefined || Number.isNaN(n) ? '–' : `${round(n, 2)}${unit}`)
const load = (f: { rps: number; p50: number; p99: number; failures: number; cpu_ms_per_request?: number | null }) =>
  `${Math.round(f.rps)} req/s · p50 ${fmt(f.p50, ' ms')} · p99 ${fmt(f.p99, ' ms')} · ${fmt(f.cpu_ms_per_request, ' CPU-ms/req')}${f.failures ? ` · ⚠ ${f.failures} failed` : ''}`

type Ratios = { ratio: number; ratio_spread?: Spread; cpu_ratio?: number; runs: unknown[] }

// The median per-round ratio with the range of the rounds, e.g. "6.3× (5.8–6.9 over 8 rounds)".
const ratioValue = (row: Ratios) => {
  const s = row.ratio_spread
  return `${fmt(row.ratio, '×')}${s && row.runs.length > 1 ? ` (${fmt(s.min)}–${fmt(s.max)} over ${row.runs.length} rounds)` : ''}`
}
const ratios = (row: Ratios) => {
  const s = row.ratio_spread
  const range = s && row.runs.length > 1 ? ` (rounds ${fmt(s.min)}–${fmt(s.max)}, middle half ${fmt(s.q1)}–${fmt(s.q3)})` : ''
  const cpu = row.cpu_ratio !== undefined ? ` · ${fmt(row.cpu_ratio, '×')} less CPU per answer` : ''
  return `**${fmt(row.ratio, '×')}** req/s${range}${cpu}`
}

/** The results as a Markdown table (stdout, bench/results/*.md, docs/benchmarks.md). */
export function renderTable(r: Results): string {
  const lines = ['| figure | sandbox | Prism mock | sandbox ÷ Prism |', '|---|---|---|---|']
  for (const row of [...(r.read ?? []), ...(r.write ?? [])]) lines.push(`| ${row.label} | ${load(row.sandbox)} | ${load(row.prism)} | ${ratios(row)} |`)
  const h = r.held_history
  if (h) {
    const rows = h.history_rows.toLocaleString('en-US')
    lines.push(`| held enable_campaign retried, ENABLED campaign (pending entry after ${rows} audit rows) | ${load(h.enabled)} | | |`)
    lines.push(`| held enable_campaign retried, PAUSED campaign (pending entry before them) | ${load(h.paused)} | | **${fmt(h.ratio, '×')}** PAUSED ÷ ENABLED req/s, ${fmt(h.cpu_ratio, '×')} ENABLED ÷ PAUSED CPU-ms/req |`)
  }
  const a = r.agent_session
  if (a) lines.push(`| ${a.label}, ${a.agents} agents | ${load(a.sandbox)} | ${load(a.prism)} | ${ratios(a)} |`)
  if (a?.floor) lines.push(`| floor: the agent session's requests against a bare node:http server (one fixed answer) | ${load(a.floor)} | | |`)
  if (r.floor) lines.push(`| floor: GET /v1/campaigns' body from a bare node:http server (no sandbox) | ${load(r.floor)} | | |`)
  for (const s of r.state_size ?? []) {
    lines.push(`| durable write, ${s.audit_records.toLocaleString('en-US')} audit rows | ${load(s)} · resume ${fmt(s.resume_ms, ' ms')} · peak RSS ${fmt(s.peak_rss_mb, ' MB')} | | |`)
  }
  const baseline = r.durability?.find((d) => d.durability === 'process')
  for (const d of r.durability ?? []) {
    const cost = baseline && d !== baseline ? ` · **${fmt(ratio(d.rps, baseline.rps), '×')}** the req/s of \`process\`` : ''
    lines.push(`| budget change, \`--durability ${d.durability}\` | ${load(d)}${cost} | | |`)
  }
  if (r.start) lines.push(`| cold start to first 200 | ${fmt(r.start.sandbox_ms, ' ms')} | ${fmt(r.start.prism_ms, ' ms')} | **${fmt(r.start.ratio)}** time |`)
  if (r.suite) {
    const s = r.suite
    const value = s.wall_ms === undefined ? `not run: ${s.skipped}`
      : `${round(s.wall_ms / 1000, 2)} s (kit load ${round((s.load_ms ?? 0) / 1000, 2)} s + run ${round((s.run_ms ?? 0) / 1000, 2)} s) · ${s.scenarios} scenarios: ${s.passed} passed, ${s.failed} failed, ${s.skipped_scenarios ?? 0} skipped · ${s.contract_violations ?? 0} contract violations`
    lines.push(`| conformance suite (in-process sandbox${s.subset ? `, ${s.subset} only` : ''}) | ${value} | | |`)
  }
  const c = r.catalog
  if (c) {
    lines.push(`| cold start with a ${c.tools}-tool catalog (\`--catalog\`) | ${fmt(c.start_ms.with, ' ms')} (without ${fmt(c.start_ms.without, ' ms')}) · RSS ${fmt(c.rss_mb.with, ' MB')} (without ${fmt(c.rss_mb.without, ' MB')}) | | |`)
    const list = (f: CatalogRow['tools_list_ms']) => `p50 ${fmt(f.p50, ' ms')} · p99 ${fmt(f.p99, ' ms')} · ${fmt(f.cpu_ms_per_request)} CPU-ms/req · ${Math.round(f.bytes / 1024)} KB`
    lines.push(`| hosted MCP tools/list, ${c.tools}+ tools on one page, sequential | ${list(c.tools_list_ms)} | | |`)
    if (c.tools_list_stateless_ms) lines.push(`| the same, stateless (no session, as the real service's bridge sends it) | ${list(c.tools_list_stateless_ms)} | | |`)
    if (c.tools_list_floor_ms) lines.push(`| floor: bare node:http sending the same listing bytes, same client | ${list(c.tools_list_floor_ms)} | | |`)
    lines.push(`| hosted MCP tools/list without a catalog (the sandbox's own tools) | ${list(c.tools_list_without_ms)} | | |`)
    lines.push(`| simulated read (google_performance_report, 30 days) | ${load(c.simulated_read)} | | |`)
    lines.push(`| modelled read (list_campaigns), same server | ${load(c.modelled_read)} | | **${fmt(c.cpu_ratio, '×')}** simulated ÷ modelled CPU-ms/req |`)
  }
  const m = r.memory
  if (m.sandbox_read_peak_rss_mb !== undefined) lines.push(`| peak RSS after the read load (journal: last 10 000 exchanges with bodies) | ${fmt(m.sandbox_read_peak_rss_mb, ' MB')} | ${fmt(m.prism_read_peak_rss_mb, ' MB')} | |`)
  if (m.sandbox_largest_state_peak_rss_mb !== undefined) lines.push(`| peak RSS, largest audit state + writes | ${fmt(m.sandbox_largest_state_peak_rss_mb, ' MB')} | | |`)
  const targets = ['', '| target | wanted | measured | met |', '|---|---|---|---|', ...r.targets.map((t) => `| ${t.figure} | ${t.target} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`)]
  const skipped = Object.entries(r.skipped).map(([k, v]) => `- ${k} not measured: ${v}`)
  const mc = r.machine
  const o = r.options
  const head = [
    `Machine: ${mc.cpu}, ${mc.cores} cores, ${mc.memory_gb} GB, Node ${mc.node}, ${mc.os}; load average ${mc.loadavg_start.join(' / ')} at start, ${(mc.loadavg_end ?? []).join(' / ')} at end.`,
    `Settings: ${o.connections} connections, ${o.duration} s runs after ${o.warmup} s warm-up, median of ${o.runs} interleaved rounds (${o.startRuns} cold starts)${o.quick ? ', --quick' : ''}; Prism spec ${r.prism_spec.fallback ? `bench/fallback-openapi.yaml (stand-in: ${r.prism_spec.reason})` : 'conformance/openapi.yaml'}, \`-v warn\`. ${r.generated_at}.`,
    ...contentionLines(r),
    '',
  ]
  return [...head, ...lines, ...targets, ...(skipped.length ? ['', ...skipped] : [])].join('\n') + '\n'
}
