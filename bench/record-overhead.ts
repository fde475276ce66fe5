import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { firstLine, guardChildren, killAll, startChild } from './lib/processes.js'
import type { Child } from './lib/processes.js'
import { AUTH, startSandbox } from './lib/servers.js'
import { round } from './lib/stats.js'

/**
 * What `adops-sandbox record` adds per proxied request (issue 38: ≤ 2 ms p50): `npx tsx
 * bench/record-overhead.ts [--requests 300] [--rounds 6]` starts the compiled sandbox (bench
 * world) and `record` in front of it, each its own process as a user runs them, then sends the
 * same requests one at a time (a client session, keep-alive) directly and through the recorder in
 * interleaved rounds (direct, recorded, recorded, direct, …), and prints p50/p99 of each side and
 * the p50 difference per operation, then the time `record` takes to write what it kept on SIGINT.
 */
const { values } = parseArgs({ options: { requests: { type: 'string', default: '300' }, rounds: { type: 'string', default: '6' }, root: { type: 'string', default: '.' } } })
const root = resolve(values.root)
const perRound = Number(values.requests)
const rounds = Number(values.rounds)

interface Urls {
  baseUrl: string
  apiUrl: string
}
const OPERATIONS: Record<string, (u: Urls) => { url: string; init: RequestInit }> = {
  'GET /v1/campaigns (api host)': (u) => ({ url: `${u.apiUrl}/v1/campaigns`, init: { headers: AUTH } }),
  'POST /api/v1/tools/run list_campaigns (base host)': (u) => ({
    url: `${u.baseUrl}/api/v1/tools/run`,
    init: { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ script_name: 'list_campaigns', args: [], platform: 'google' }) },
  }),
}

/** Milliseconds per request, `n` requests one after another. */
async function timed(target: { url: string; init: RequestInit }, n: number): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    const res = await fetch(target.url, target.init)
    await res.arrayBuffer()
    out.push(performance.now() - t)
    if (res.status >= 300) throw new Error(`${target.url} answered ${res.status}`)
  }
  return out
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))], 2)
}

guardChildren()
const dir = await mkdtemp(join(tmpdir(), 'adops-bench-record-'))
let recorder: Child | null = null
try {
  const sandbox = await startSandbox({ root, state: join(dir, 'state.json') })
  recorder = startChild(process.execPath, [join(root, 'dist/src/main.js'), 'record', '--target-base', sandbox.baseUrl, '--target-api', sandbox.apiUrl, '--out', join(dir, 'recording'), '--json'], { cwd: root })
  const banner = JSON.parse(await firstLine(recorder)) as { base_url: string; api_url: string }
  const direct: Urls = sandbox
  const recorded: Urls = { baseUrl: banner.base_url, apiUrl: banner.api_url }
  console.log(`record overhead: ${rounds} rounds × ${perRound} requests per side and operation, one at a time, keep-alive\n`)
  console.log('| operation | direct p50 | recorded p50 | p50 added | direct p99 | recorded p99 |')
  console.log('|---|---|---|---|---|---|')
  let exchanges = 0
  for (const [name, make] of Object.entries(OPERATIONS)) {
    await timed(make(direct), 50)
    await timed(make(recorded), 50)
    const sides = { direct: [] as number[], recorded: [] as number[] }
    for (let r = 0; r < rounds; r++) {
      // Interleaved, the order flipped each round: both sides see the same machine.
      const order = r % 2 ? (['recorded', 'direct'] as const) : (['direct', 'recorded'] as const)
      for (const side of order) sides[side].push(...await timed(make(side === 'direct' ? direct : recorded), perRound))
    }
    exchanges += 50 + rounds * perRound
    const [d, x] = [percentile(sides.direct, 50), percentile(sides.recorded, 50)]
    console.log(`| ${name} | ${d} ms | ${x} ms | ${round(x - d, 2)} ms | ${percentile(sides.direct, 99)} ms | ${percentile(sides.recorded, 99)} ms |`)
  }
  const stopped = performance.now()
  recorder.proc.kill('SIGINT')
  await recorder.exited
  console.log(`\nrecord: SIGINT to exit with ${exchanges} exchanges kept (world, scenario and recording written): ${Math.round(performance.now() - stopped)} ms`)
  await sandbox.stop()
} finally {
  await recorder?.stop(500)
  killAll()
  await rm(dir, { recursive: true, force: true })
}
