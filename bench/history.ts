import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { execFileSync } from 'node:child_process'
import { guardChildren } from './lib/processes.js'
import { measureHistoryGrowth, measureSeededResume } from './sections/history-growth.js'

const HELP = `npm run bench:history -- [flags]

  Memory, log size and resume time as the history grows (issue 17 items 1-2): durable writes
  through HTTP, RSS and log bytes at each milestone, then a timed resume.

  --milestones <list>   durable writes at which to measure (default 10000,100000; none: skip)
  --million             add the 1 000 000 milestone (several minutes)
  --workers <n>         concurrent write loops (default 16)
  --seeded <n>          also time a resume from <n> audit rows (and n/2 ledger rows) appended
                        directly through the compiled store: a 1M-row history in about a minute
  --out <file>          JSON results (default bench/results/history.json)
  --no-build            skip \`npm run build\` (dist/ must be current)
`

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    milestones: { type: 'string' }, seeded: { type: 'string' }, million: { type: 'boolean', default: false }, workers: { type: 'string' },
    out: { type: 'string' }, 'no-build': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false },
  },
})
if (values.help) {
  process.stdout.write(HELP)
  process.exit(0)
}
guardChildren()
const milestones = values.milestones === 'none' ? [] : (values.milestones ?? '10000,100000').split(',').map(Number)
if (values.million) milestones.push(1_000_000)
if (milestones.some((m) => !Number.isInteger(m) || m <= 0)) throw new Error(`--milestones: positive integers, got ${values.milestones}`)
if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
const log = (line: string) => process.stdout.write(`${line}\n`)
log(`bench: history growth at ${milestones.join(', ')} durable writes`)
const rows = await measureHistoryGrowth({ root, milestones: milestones.sort((a, b) => a - b), workers: values.workers ? Number(values.workers) : undefined, log })
const seeded = values.seeded ? await measureSeededResume({ root, rows: Number(values.seeded), log }) : null
const first = rows[0]
const last = rows.at(-1)
const summary = {
  rss_ratio_last_to_first: first?.rss_mb && last?.rss_mb ? Math.round((last.rss_mb / first.rss_mb) * 100) / 100 : null,
  targets: { rss_at_1m_mb: 300, rss_ratio: 1.3, resume_ms: 2000 },
}
const out = values.out ?? join(root, 'bench/results/history.json')
await mkdir(dirname(out), { recursive: true })
await writeFile(out, JSON.stringify({ generated_at: new Date().toISOString(), rows, seeded, summary }, null, 2) + '\n')
log(`bench: RSS ratio ${milestones.at(-1)} / ${milestones[0]} writes = ${summary.rss_ratio_last_to_first}; results in ${out}`)
process.exit(0)
