import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

export const SECTIONS = ['read', 'write', 'size', 'durability', 'start', 'suite', 'catalog'] as const
export type Section = (typeof SECTIONS)[number]

export interface BenchOptions {
  connections: number
  /** Seconds of each measured autocannon run. */
  duration: number
  /** Seconds of load before the first measured run of each target (discarded). */
  warmup: number
  /** Measured runs per figure; every figure is the median of these. */
  runs: number
  /** Cold starts per server. */
  startRuns: number
  /** Audit records present for the write-cost-vs-state-size figures. */
  sizes: number[]
  sections: Section[]
  quick: boolean
  build: boolean
  /** Where results.json / results.md go. */
  out: string
  /** The whole bench is aborted (children killed) after this many seconds. */
  timeout: number
}

const HELP = `npm run bench -- [flags]

  --quick                 smoke run: 0.5 s loads, no warm-up, 1 run, sizes 1k,10k, one scenario (results to a temp dir)
  --connections <n>       concurrent connections (default 50)
  --duration <s>          seconds per measured run (default 5; quick 0.5)
  --warmup <s>            seconds of discarded load before each target (default 3; quick 0)
  --runs <n>              interleaved rounds per figure (sandbox, Prism, Prism, sandbox, ...), median reported (default 8)
  --start-runs <n>        cold starts per server (default 5)
  --sizes <list>          audit records for write cost vs state size (default 1000,10000,100000)
  --only <list>           sections: ${SECTIONS.join(',')} (default all)
  --out <dir>             results directory (default bench/results; --quick: a temp dir)
  --no-build              skip \`npm run build\` (dist/ must be current)
  --timeout <s>           abort and kill everything after this long (default 1800; --quick 120)
`

/** Parses `npm run bench -- …` flags; `--quick` changes the defaults, explicit flags still win. */
export function parseOptions(argv: string[], root: string): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      connections: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      runs: { type: 'string' },
      'start-runs': { type: 'string' },
      sizes: { type: 'string' },
      only: { type: 'string' },
      out: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  })
  if (values.help) return 'help'
  const quick = values.quick ?? false
  const sections = values.only ? values.only.split(',').map((s) => s.trim()) : [...SECTIONS]
  for (const s of sections) if (!SECTIONS.includes(s as Section)) throw new Error(`--only: unknown section "${s}" (${SECTIONS.join(', ')})`)
  return {
    connections: num('connections', values.connections, 50),
    duration: num('duration', values.duration, quick ? 0.5 : 5),
    warmup: num('warmup', values.warmup, quick ? 0 : 3),
    runs: num('runs', values.runs, quick ? 1 : 8),
    startRuns: num('start-runs', values['start-runs'], quick ? 1 : 5),
    sizes: values.sizes ? values.sizes.split(',').map((s) => num('sizes', s, 0)) : quick ? [1000, 10000] : [1000, 10000, 100000],
    sections: sections as Section[],
    quick,
    build: !values['no-build'],
    out: values.out ?? (quick ? join(tmpdir(), 'adops-bench-quick') : join(root, 'bench/results')),
    timeout: num('timeout', values.timeout, quick ? 120 : 1800),
  }
}

export function helpText(): string {
  return HELP
}

function num(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${flag}: expected a non-negative number, got "${value}"`)
  return n
}
