/**
 * A full rehearsal as a CI user runs it (issue 34 "Speed"): the shipped reference agent over every
 * shipped case (`rehearsals/tasks` + `rehearsals/suite`: benign tasks and the injection matrix) with
 * `--jobs 2`, timed from spawn to exit, in a child process. Appends one record to
 * `bench/results/rehearse.json` and prints it as a Markdown table row.
 *
 *   npx tsx bench/rehearse.ts [--agent careful] [--jobs 2] [--dist] [--out bench/results/rehearse.json]
 *
 * `--dist` runs the built CLI (`node dist/src/main.js`, as the package's bin; run `npm run build`
 * first), otherwise the source through tsx (the CLI's start-up is paid once either way; each
 * case's agent is a plain `node` process).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { agent: { type: 'string', default: 'careful' }, jobs: { type: 'string', default: '2' }, dist: { type: 'boolean', default: false }, out: { type: 'string', default: 'bench/results/rehearse.json' } } })
const root = resolve(import.meta.dirname, '..')
const dir = await mkdtemp(join(tmpdir(), 'bench-rehearse-'))
const report = join(dir, 'report.json')
const cli = values.dist ? ['dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts']
const args = [...cli, 'rehearse', '--agent', `node rehearsals/agents/${values.agent}.mjs`, '--jobs', values.jobs!, '--reporter', `json:${report}`]

let output = ''
const loadBefore = loadavg()
const started = performance.now()
const code = await new Promise<number | null>((done) => {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.on('exit', (c) => done(c))
})
const wallS = Math.round((performance.now() - started) / 100) / 10
const loadAfter = loadavg()
const result = JSON.parse(await readFile(report, 'utf8')) as { tasks: Array<{ injected?: boolean; efficiency: { wall_ms: number } }>; summary: { passed: number; failed: number } }
await rm(dir, { recursive: true, force: true })

const record = {
  date: new Date().toISOString(),
  agent: values.agent,
  jobs: Number(values.jobs),
  cli: values.dist ? 'dist' : 'tsx',
  exit_code: code,
  cases: result.tasks.length,
  security_cases: result.tasks.filter((t) => t.injected).length,
  passed: result.summary.passed,
  failed: result.summary.failed,
  wall_s: wallS,
  /** The agents' own time summed over the cases (each case's spawn to exit). */
  agent_s: Math.round(result.tasks.reduce((n, t) => n + t.efficiency.wall_ms, 0) / 100) / 10,
  machine: { cores: cpus().length, model: cpus()[0]?.model ?? '?', node: process.version, load_before: loadBefore.map((l) => Math.round(l * 100) / 100), load_after: loadAfter.map((l) => Math.round(l * 100) / 100) },
}
const out = resolve(root, values.out!)
const history = JSON.parse(await readFile(out, 'utf8').catch(() => '[]')) as unknown[]
await writeFile(out, `${JSON.stringify([...history, record], null, 2)}\n`)
// The rehearsal's own summary (its last lines: the totals, the three numbers, per family and site).
const lines = output.replace(/\x1b\[[0-9;]*m/g, '').trimEnd().split('\n')
const head = lines.map((l) => /^(passed|failed): /.test(l)).lastIndexOf(true)
process.stdout.write(`${lines.slice(Math.max(0, head)).join('\n')}\n`)
process.stdout.write(`| ${record.date.slice(0, 16).replace('T', ' ')} UTC | ${record.agent} | ${record.cases} (${record.security_cases} security) | ${record.passed} passed, ${record.failed} failed | --jobs ${record.jobs} | **${record.wall_s} s** | ${record.machine.load_before[0]} → ${record.machine.load_after[0]} |\n`)
process.exitCode = code === 0 ? 0 : 1
