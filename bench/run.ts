import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchOptions } from './lib/options.js'
import { helpText, parseOptions } from './lib/options.js'
import { firstCampaignId, readPairs, writePairs } from './lib/operations.js'
import { guardChildren, killAll, peakRssMb } from './lib/processes.js'
import type { Results } from './lib/report.js'
import { describeMachine, evaluateTargets, renderTable } from './lib/report.js'
import type { RunningServer } from './lib/servers.js'
import { AUTH, prismSpec, startPrism, startSandbox } from './lib/servers.js'
import { startFloor } from './lib/floor.js'
import type { LoadFigures, Target } from './lib/load.js'
import { fire } from './lib/load.js'
import { median, medianOf, ratio, round } from './lib/stats.js'
import { comparePairs } from './sections/compare.js'
import { measureStarts } from './sections/start.js'
import { measureStateSizes } from './sections/state-size.js'
import { measureDurability } from './sections/durability.js'
import { measureSuite } from './sections/suite.js'
import { measureHeldHistory } from './sections/held-history.js'
import { measureAgentSession } from './sections/agent-session.js'
import { measureCatalog } from './sections/catalog.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const t0 = performance.now()
const log = (line: string) => process.stderr.write(`${line.startsWith('bench:') ? `[${Math.round((performance.now() - t0) / 1000)} s] ` : ''}${line}\n`)

/** `npm run bench`: every figure of issue 8, as a table on stdout and JSON under bench/results/. */
async function main(): Promise<void> {
  const parsed = parseOptions(process.argv.slice(2), root)
  if (parsed === 'help') {
    process.stdout.write(helpText())
    return
  }
  const options = parsed
  guardChildren()
  const deadline = setTimeout(() => {
    log(`bench: aborted after --timeout ${options.timeout} s; child processes killed`)
    killAll()
    process.exit(3)
  }, options.timeout * 1000)
  deadline.unref()
  const buildWarning = options.build ? build() : null
  const results = await measure(options)
  if (buildWarning) results.skipped.build = buildWarning
  results.machine.loadavg_end = loadavg().map((l) => round(l, 2))
  results.targets = evaluateTargets(results)
  const table = renderTable(results)
  await mkdir(options.out, { recursive: true })
  await writeFile(join(options.out, 'results.json'), JSON.stringify(results, null, 2) + '\n')
  await writeFile(join(options.out, 'results.md'), table)
  process.stdout.write(`\n${table}\nresults: ${join(options.out, 'results.json')}\n`)
}

/** Builds dist/; returns a warning (also kept in the results) when tsc reported errors. */
function build(): string | null {
  log('bench: npm run build')
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
  if (result.status === 0) return null
  // tsc still emits on type errors (someone else's file mid-edit); measure that output, loudly.
  if (!existsSync(join(root, 'dist/src/main.js'))) throw new Error('npm run build failed and dist/src/main.js does not exist')
  const warning = 'npm run build reported type errors; the JavaScript it emitted was measured anyway'
  log(`bench: WARNING: ${warning}`)
  return warning
}

async function measure(options: BenchOptions): Promise<Results> {
  const { out: _out, ...shown } = options
  const spec = prismSpec(root)
  const results: Results = {
    generated_at: new Date().toISOString(), machine: describeMachine(), options: shown,
    prism_spec: { ...spec, path: spec.path.slice(root.length + 1) }, memory: {}, skipped: {}, targets: [],
  }
  const settings = { connections: options.connections, duration: options.duration, warmup: options.warmup, runs: options.runs }
  const on = (s: string) => options.sections.includes(s as never)
  if (on('read') || on('write')) await measureComparisons({ results, spec: spec.path, settings, on })
  if (on('size')) {
    log(`bench: durable write cost vs audit rows (${options.sizes.join(', ')})`)
    await attempt(results, 'state_size', async () => {
      results.state_size = await measureStateSizes({ root, sizes: options.sizes, settings, log })
      results.memory.sandbox_largest_state_peak_rss_mb = results.state_size.at(-1)?.peak_rss_mb ?? null
    })
  }
  if (on('durability')) {
    log('bench: budget change under --durability process and fsync')
    await attempt(results, 'durability', async () => {
      results.durability = await measureDurability({ root, settings, log })
    })
  }
  if (on('start')) {
    log('bench: cold start to first 200')
    await attempt(results, 'start', async () => {
      // --quick: the comparison servers' own cold starts are the sample (saves two more starts).
      results.start = options.quick && firstStarts
        ? { ...firstStarts, ratio: ratio(firstStarts.sandbox_ms, firstStarts.prism_ms), runs: [firstStarts] }
        : await measureStarts({ root, spec: spec.path, runs: options.startRuns, log })
    })
  }
  if (on('catalog')) {
    log('bench: a 200-tool catalog: start-up, RSS, tools/list, simulated vs modelled read')
    await attempt(results, 'catalog', async () => {
      results.catalog = await measureCatalog({ root, runs: options.runs, startRuns: options.startRuns, settings, log })
    })
  }
  if (on('suite')) {
    log('bench: conformance suite wall time')
    await attempt(results, 'suite', async () => {
      results.suite = await measureSuite({ root, timeoutMs: options.quick ? 60_000 : 300_000, subset: options.quick ? 'scenarios/key/KEY-01-key-format.yaml' : undefined })
    })
  }
  return results
}

/** Cold starts of the servers the comparisons started (each started once, sequentially). */
let firstStarts: { sandbox_ms: number; prism_ms: number } | null = null

/** Read and write comparisons share one sandbox (fresh state file) and one Prism. */
async function measureComparisons(options: { results: Results; spec: string; settings: Parameters<typeof comparePairs>[1]; on: (s: string) => boolean }): Promise<void> {
  const { results, spec, settings, on } = options
  const dir = await mkdtemp(join(tmpdir(), 'adops-bench-'))
  let sandbox: RunningServer | null = null
  let prism: RunningServer | null = null
  try {
    log('bench: starting sandbox and prism mock')
    sandbox = await startSandbox({ root, state: join(dir, 'state.json') })
    prism = await startPrism({ root, spec })
    firstStarts = { sandbox_ms: round(sandbox.startMs), prism_ms: round(prism.startMs) }
    if (on('read')) {
      log('bench: read path')
      await attempt(results, 'read', async () => {
        results.read = await comparePairs(readPairs(sandbox!, prism!), settings, log)
        results.memory.sandbox_read_peak_rss_mb = peakRssMb(sandbox!.child.pid)
        results.memory.prism_read_peak_rss_mb = peakRssMb(prism!.child.pid)
      })
      await attempt(results, 'floor', async () => {
        results.floor = await measureFloor(sandbox!, settings)
      })
    }
    if (on('write')) {
      log('bench: durable write path')
      await attempt(results, 'write', async () => {
        results.write = await comparePairs(writePairs(sandbox!, prism!, await firstCampaignId(sandbox!)), settings, log)
      })
      log('bench: held write behind history (issue 17 item 3)')
      await attempt(results, 'held_history', async () => {
        results.held_history = await measureHeldHistory({ sandbox: sandbox!, settings, log })
      })
      log('bench: agent session (mixed reads, writes, held writes, approvals)')
      await attempt(results, 'agent_session', async () => {
        results.agent_session = await measureAgentSession({ sandbox: sandbox!, prism: prism!, settings, log })
      })
    }
  } catch (error) {
    results.skipped.read_write = (error as Error).message
    log(`bench: read/write skipped: ${(error as Error).message}`)
  } finally {
    await Promise.all([sandbox?.stop(), prism?.stop()])
    await rm(dir, { recursive: true, force: true })
  }
}

/** The same GET /v1/campaigns body from a bare node:http server: what the machine allows at all. */
async function measureFloor(sandbox: RunningServer, settings: Parameters<typeof comparePairs>[1]): Promise<Results['floor']> {
  const res = await fetch(`${sandbox.apiUrl}/v1/campaigns`, { headers: AUTH })
  const floor = await startFloor(await res.text())
  try {
    const target: Target = { url: `${floor.apiUrl}/v1/campaigns`, method: 'GET', headers: AUTH, status: 200, pid: floor.pid }
    const load = { connections: settings.connections, seconds: settings.duration }
    if (settings.warmup > 0) await fire(target, { ...load, seconds: settings.warmup })
    const runs: LoadFigures[] = []
    for (let i = 0; i < settings.runs; i++) runs.push(await fire(target, load))
    log(`  floor (bare node:http, same body): ${Math.round(median(runs.map((r) => r.rps)))} req/s`)
    return medianOf(runs, ['rps', 'p50', 'p99', 'failures', 'cpu_ms_per_request'])
  } finally {
    await floor.stop()
  }
}

/** Runs one section; a failure (e.g. an operation not implemented yet) is recorded, not fatal. */
async function attempt(results: Results, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn()
  } catch (error) {
    results.skipped[name] = (error as Error).message.split('\n')[0].slice(0, 300)
    log(`bench: ${name} not measured: ${results.skipped[name]}`)
  }
}

// Exit explicitly: keep-alive sockets of fetch/autocannon must not hold the harness open.
main().then(() => process.exit(0), (error: Error) => {
  log(`bench: ${error.stack ?? error.message}`)
  killAll()
  process.exit(1)
})
