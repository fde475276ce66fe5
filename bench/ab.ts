import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { LoadFigures, Target } from './lib/load.js'
import type { RunningServer } from './lib/servers.js'
import { fire, probe } from './lib/load.js'
import { budgetChange, firstCampaignId, heldWrite, runScript } from './lib/operations.js'
import { guardChildren, killAll } from './lib/processes.js'
import { startSandbox } from './lib/servers.js'
import { measureAgentSession } from './sections/agent-session.js'
import { median, ratio, round, spreadOf } from './lib/stats.js'

/**
 * Two builds of the sandbox side by side on a busy machine: `npx tsx bench/ab.ts --before <root>
 * --after <root>` starts both (each root must hold a built `dist/`), then fires each operation at
 * them in interleaved rounds (before, after, after, before, …) and prints the median req/s and
 * server CPU per request of each, with the per-round ratios. Both builds run at once, so each
 * round sees the same machine: the way to tell a change's effect from other load. `--only agent`
 * runs the agent session (`sections/agent-session.ts`) with the after build in the sandbox's seat
 * and the before build in Prism's (no `Prefer`), so its ratio is after ÷ before.
 */
const OPERATIONS: Record<string, (s: RunningServer, campaign: string) => Target> = {
  get: (s) => ({ url: `${s.apiUrl}/v1/campaigns`, method: 'GET', headers: { authorization: 'Bearer svc_test_benchOwner0000000000000000000000' }, status: 200, pid: s.pid }),
  list: (s) => runScript(s, 'list_campaigns', []),
  held: (s, campaign) => heldWrite(s, campaign),
  budget: (s, campaign) => budgetChange(s, campaign),
}

const { values } = parseArgs({
  options: {
    before: { type: 'string' }, after: { type: 'string' }, 'before-node': { type: 'string', default: '' }, 'after-node': { type: 'string', default: '' },
    'before-serve': { type: 'string', default: '' }, 'after-serve': { type: 'string', default: '' }, only: { type: 'string', default: 'get,list,held,budget' },
    rounds: { type: 'string', default: '6' }, duration: { type: 'string', default: '3' }, connections: { type: 'string', default: '50' }, rate: { type: 'string', default: '0' },
  },
})
if (!values.before || !values.after) throw new Error('usage: npx tsx bench/ab.ts --before <root> --after <root> [--only get,list,held,budget,agent] [--rounds 6] [--duration 3] [--rate <req/s>] [--before-node="<node flags>"] [--after-node="<node flags>"] [--before-serve="<serve flags>"] [--after-serve="<serve flags>"]')
// Node/V8 flags (`--after-node="--max-semi-space-size=32"`) or `serve` flags (`--after-serve="--journal-limit 100"`)
// for one side: A/B a runtime setting on one build.
const nodeArgsOf = (text: string) => text.split(/\s+/).filter(Boolean)
const load = { connections: Number(values.connections), seconds: Number(values.duration) }
guardChildren()
const dir = await mkdtemp(join(tmpdir(), 'adops-bench-ab-'))
const servers: RunningServer[] = []
try {
  const before = await startSandbox({ root: resolve(values.before), state: join(dir, 'before.json'), nodeArgs: nodeArgsOf(values['before-node']), extraArgs: nodeArgsOf(values['before-serve']) })
  servers.push(before)
  const after = await startSandbox({ root: resolve(values.after), state: join(dir, 'after.json'), nodeArgs: nodeArgsOf(values['after-node']), extraArgs: nodeArgsOf(values['after-serve']) })
  servers.push(after)
  const campaigns = [await firstCampaignId(before), await firstCampaignId(after)]
  for (const name of values.only.split(',')) {
    if (name === 'agent') {
      const settings = { ...load, duration: load.seconds, warmup: 1, runs: Number(values.rounds) }
      const row = await measureAgentSession({ sandbox: after, prism: before, settings, log: () => {}, prismHeld: {}, rate: Number(values.rate) || undefined })
      const side = (f: typeof row.sandbox) => `${Math.round(f.rps)} req/s, ${f.cpu_ms_per_request} CPU-ms/req, p99 ${f.p99} ms`
      const cpu = spreadOf(row.runs.map((r) => r.cpu_ratio))
      process.stdout.write(`agent: before ${side(row.prism)} · after ${side(row.sandbox)} · after ÷ before ${row.ratio}× req/s (rounds ${row.ratio_spread.min}–${row.ratio_spread.max}) · before ÷ after CPU per answer ${row.cpu_ratio}× (rounds ${cpu.min}–${cpu.max}, middle half ${cpu.q1}–${cpu.q3})\n`)
      continue
    }
    const make = OPERATIONS[name]
    if (!make) throw new Error(`--only: unknown operation "${name}" (${Object.keys(OPERATIONS).join(', ')})`)
    const targets = [make(before, campaigns[0]), make(after, campaigns[1])]
    for (const target of targets) {
      await probe(target)
      await fire(target, { ...load, seconds: 1 })
    }
    const rounds: Array<[LoadFigures, LoadFigures]> = []
    for (let i = 0; i < Number(values.rounds); i++) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0]
      const got: LoadFigures[] = []
      for (const side of order) got[side] = await fire(targets[side], load)
      rounds.push([got[0], got[1]])
    }
    const side = (k: 0 | 1) => `${Math.round(median(rounds.map((r) => r[k].rps)))} req/s, ${round(median(rounds.map((r) => r[k].cpu_ms_per_request ?? Number.NaN)), 3)} CPU-ms/req, p99 ${median(rounds.map((r) => r[k].p99))} ms`
    const ratios = rounds.map(([b, a]) => ratio(a.rps, b.rps))
    const failures = rounds.reduce((n, [b, a]) => n + b.failures + a.failures, 0)
    const spread = spreadOf(ratios)
    process.stdout.write(`${name}: before ${side(0)} · after ${side(1)} · after ÷ before ${Math.round(median(ratios) * 100) / 100}× req/s (rounds ${spread.min}–${spread.max})${failures ? ` · ${failures} failed` : ''}\n`)
  }
} finally {
  await Promise.all(servers.map((s) => s.stop()))
  killAll()
  await rm(dir, { recursive: true, force: true })
}
process.exit(0)
