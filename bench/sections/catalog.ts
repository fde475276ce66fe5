import { mkdtemp, rm } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { execFile, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunningServer } from '../lib/servers.js'
import { BENCH_KEY, startSandbox } from '../lib/servers.js'
import type { LoadFigures, Target } from '../lib/load.js'
import { fire, probe } from '../lib/load.js'
import { runScript } from '../lib/operations.js'
import { median, ratio, round } from '../lib/stats.js'
import { cpuTimeMs } from '../lib/processes.js'
import { startFloor } from '../lib/floor.js'

export interface ListFigures { p50: number; p99: number; requests: number; cpu_ms_per_request: number | null; bytes: number }

export interface CatalogRow {
  tools: number
  /**
   * Loading the catalog in a fresh process that has imported what `serve` imports anyway
   * (`lib/catalog-probe.mjs`), medians: wall ms, CPU ms (robust to a busy machine) and RSS MB added.
   */
  load: { ms: number; cpu_ms: number; rss_mb: number }
  /** Median spawn-to-first-200 with and without `--catalog`, and the difference (target ≤ 300 ms). */
  start_ms: { without: number; with: number; added: number }
  /** Median RSS once ready, with and without, and the difference (target ≤ 20 MB). */
  rss_mb: { without: number; with: number; added: number }
  /**
   * Sequential `tools/list` over hosted MCP in a session, whole list on one page, timed by a plain-node
   * client (`lib/list-client.mjs`): latency (target p99 ≤ 5 ms) and the server's CPU ms per request,
   * with the catalog and without it (the sandbox's own tools).
   */
  tools_list_ms: ListFigures
  /** The same without a session (the real service's bridge never initialises). */
  tools_list_stateless_ms?: ListFigures
  /** A bare node:http server answering the same listing bytes, the same client: what the machine allows. */
  tools_list_floor_ms?: ListFigures
  tools_list_without_ms: ListFigures
  /** A simulated performance read vs the modelled `list_campaigns` under load (target: CPU per request no more). */
  simulated_read: LoadFigures
  modelled_read: LoadFigures
  /** simulated ÷ modelled CPU ms per request, median of rounds (≤ 1 meets the target). */
  cpu_ratio: number
}

const CATALOG = 'fixtures/catalogs/synthetic-200.json'

/**
 * Issue 35 "Speed and memory": what serving the 200-tool synthetic catalog costs. Cold starts with
 * and without `--catalog` (alternating), RSS once ready, `tools/list` latency, and a simulated read
 * (`google_performance_report`, 30 days over the bench world's campaigns) against the modelled
 * `list_campaigns` in interleaved rounds.
 */
export async function measureCatalog(options: {
  root: string; runs: number; startRuns: number; settings: { connections: number; duration: number; warmup: number }; log: (line: string) => void
}): Promise<CatalogRow> {
  const dir = await mkdtemp(join(tmpdir(), 'adops-bench-catalog-'))
  const tools = (JSON.parse(readFileSync(join(options.root, CATALOG), 'utf8')) as { tools: unknown[] }).tools.length
  const starts: Array<{ without: number; with: number; rssWithout: number; rssWith: number }> = []
  let server: RunningServer | null = null
  try {
    for (let i = 0; i < options.startRuns; i++) {
      const one = async (catalog: boolean) => {
        const s = await startSandbox({ root: options.root, state: join(dir, `s-${i}-${catalog}.json`), extraArgs: catalog ? ['--catalog', CATALOG] : [] })
        const rss = rssMb(s.pid)
        await s.stop()
        return { ms: s.startMs, rss }
      }
      const [a, b] = i % 2 === 0 ? [await one(false), await one(true)] : await one(true).then(async (w) => [await one(false), w])
      starts.push({ without: a.ms, with: b.ms, rssWithout: a.rss, rssWith: b.rss })
      options.log(`  catalog start ${i + 1}/${options.startRuns}: ${Math.round(a.ms)} → ${Math.round(b.ms)} ms, RSS ${a.rss} → ${b.rss} MB`)
    }
    const probes = Array.from({ length: Math.max(3, options.startRuns) }, () => loadProbe(options.root))
    const load = { ms: round(median(probes.map((p) => p.ms))), cpu_ms: round(median(probes.map((p) => p.cpu_ms))), rss_mb: round(median(probes.map((p) => p.rss_mb))) }
    options.log(`  catalog load: ${load.ms} ms wall, ${load.cpu_ms} ms CPU, ${load.rss_mb} MB RSS`)
    server = await startSandbox({ root: options.root, state: join(dir, 'plain.json') })
    const tools_list_without_ms = await listLatency(server, { session: true })
    await server.stop()
    server = await startSandbox({ root: options.root, state: join(dir, 'load.json'), extraArgs: ['--catalog', CATALOG] })
    const tools_list_ms = await listLatency(server, { session: true })
    const tools_list_stateless_ms = await listLatency(server, { session: false })
    const tools_list_floor_ms = await listFloor(server)
    options.log(`  tools/list: p50 ${tools_list_ms.p50} ms, p99 ${tools_list_ms.p99} ms, ${tools_list_ms.cpu_ms_per_request} CPU-ms; stateless p99 ${tools_list_stateless_ms.p99} ms; floor p99 ${tools_list_floor_ms.p99} ms (without the catalog: p99 ${tools_list_without_ms.p99} ms, ${tools_list_without_ms.cpu_ms_per_request} CPU-ms)`)
    const simulated: Target = { ...runScript(server, 'google_performance_report', ['--days=30']), body: JSON.stringify({ script_name: 'google_performance_report', args: ['--days=30'] }) }
    const modelled = runScript(server, 'list_campaigns', [])
    await probe(simulated)
    await probe(modelled)
    await fire(simulated, { connections: options.settings.connections, seconds: options.settings.warmup })
    await fire(modelled, { connections: options.settings.connections, seconds: options.settings.warmup })
    const rounds: Array<{ sim: LoadFigures; mod: LoadFigures }> = []
    for (let r = 0; r < options.runs; r++) {
      const load = { connections: options.settings.connections, seconds: options.settings.duration }
      const [sim, mod] = r % 2 === 0 ? [await fire(simulated, load), await fire(modelled, load)] : await fire(modelled, load).then(async (m) => [await fire(simulated, load), m])
      rounds.push({ sim, mod })
      options.log(`  catalog round ${r + 1}/${options.runs}: simulated ${Math.round(sim.rps)} req/s (${sim.cpu_ms_per_request} ms CPU), modelled ${Math.round(mod.rps)} req/s (${mod.cpu_ms_per_request} ms CPU)`)
    }
    const mid = (pick: (r: { sim: LoadFigures; mod: LoadFigures }) => LoadFigures) => rounds.map(pick).sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]
    return {
      tools,
      load,
      start_ms: { without: round(median(starts.map((s) => s.without))), with: round(median(starts.map((s) => s.with))), added: round(median(starts.map((s) => s.with - s.without))) },
      rss_mb: { without: median(starts.map((s) => s.rssWithout)), with: median(starts.map((s) => s.rssWith)), added: median(starts.map((s) => s.rssWith - s.rssWithout)) },
      tools_list_ms,
      tools_list_stateless_ms,
      tools_list_floor_ms,
      tools_list_without_ms,
      simulated_read: mid((r) => r.sim),
      modelled_read: mid((r) => r.mod),
      cpu_ratio: median(rounds.map((r) => ratio(r.sim.cpu_ms_per_request ?? Number.NaN, r.mod.cpu_ms_per_request ?? Number.NaN))),
    }
  } finally {
    await server?.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

function loadProbe(root: string): { ms: number; cpu_ms: number; rss_mb: number } {
  const run = spawnSync(process.execPath, ['--expose-gc', join(root, 'bench/lib/catalog-probe.mjs'), root, join(root, CATALOG)], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  if (run.status !== 0) throw new Error(`catalog probe failed: ${run.stderr.slice(0, 500)}`)
  return JSON.parse(run.stdout) as { ms: number; cpu_ms: number; rss_mb: number }
}

/** Current RSS of a live process in MB (Linux), NaN elsewhere. */
function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Math.round(Number(match[1]) / 1024) : Number.NaN
  } catch {
    return Number.NaN
  }
}

/** Listings per latency run, after a warm-up run of `WARM_UP` (the JIT compiles on other threads of the server for the first few thousand, and that CPU would be counted per request). */
const LISTINGS = 2000
const LIST_CLIENT = fileURLToPath(new URL('../lib/list-client.mjs', import.meta.url))
const WARM_UP = 2000

/**
 * Sequential `tools/list` timed by a plain-node client (`lib/list-client.mjs`) in one MCP session
 * (`session`) or statelessly; the server's CPU ms per listing from its /proc times around the run.
 */
async function listLatency(server: Pick<RunningServer, 'baseUrl' | 'pid'>, options: { session: boolean }): Promise<ListFigures> {
  const run = (count: number) => listClient(`${server.baseUrl}/mcp`, count, options.session)
  await run(WARM_UP)
  const cpu0 = cpuTimeMs(server.pid)
  const { times, bytes } = await run(LISTINGS)
  const cpu1 = cpuTimeMs(server.pid)
  const sorted = [...times].sort((a, b) => a - b)
  return {
    p50: round(sorted[Math.floor(sorted.length * 0.5)], 2), p99: round(sorted[Math.floor(sorted.length * 0.99)], 2), requests: sorted.length,
    cpu_ms_per_request: cpu0 !== null && cpu1 !== null ? round((cpu1 - cpu0) / sorted.length, 2) : null, bytes,
  }
}

function listClient(url: string, count: number, session: boolean): Promise<{ times: number[]; bytes: number }> {
  return new Promise((resolve, reject) => {
    const args = [LIST_CLIENT, url, BENCH_KEY, String(count), ...(session ? ['session'] : [])]
    execFile(process.execPath, args, { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`list client failed: ${stderr.slice(0, 500) || error.message}`))
      else resolve(JSON.parse(stdout) as { times: number[]; bytes: number })
    })
  })
}

/**
 * The floor for the same listing: a bare node:http server answering the sandbox's own listing bytes
 * to every request, timed by the same client. What this machine and client allow at all.
 */
async function listFloor(server: RunningServer): Promise<ListFigures> {
  const answer = await fetch(`${server.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-service-key': BENCH_KEY },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  })
  const floor = await startFloor(await answer.text())
  try {
    return await listLatency(floor, { session: false })
  } finally {
    await floor.stop()
  }
}
