import type { LoadFigures, Target } from '../lib/load.js'
import { fire, probe } from '../lib/load.js'
import { median, medianOf, ratio } from '../lib/stats.js'

/** One operation measured on the sandbox and on Prism's mock of it. */
export interface Pair {
  id: string
  label: string
  sandbox: Target
  prism: Target
}

export interface Figures {
  rps: number
  p50: number
  p99: number
  failures: number
  bytes_per_request: number
  cpu_ms_per_request: number
}

export interface ComparisonRow {
  id: string
  label: string
  sandbox: Figures
  prism: Figures
  /** Median over runs of sandbox req/s ÷ Prism req/s measured back to back in the same run. */
  ratio: number
  runs: Array<{ sandbox: LoadFigures; prism: LoadFigures; ratio: number }>
}

export interface LoadSettings {
  connections: number
  duration: number
  warmup: number
  runs: number
}

const FIELDS = ['rps', 'p50', 'p99', 'failures', 'bytes_per_request', 'cpu_ms_per_request'] as const

/**
 * Measures each pair `runs` times, sandbox and Prism back to back (alternating who goes first), after
 * one discarded warm-up per target. Each figure is the median of the runs; the ratio is the median
 * of the per-run ratios, so both sides of a ratio saw the same machine load.
 */
export async function comparePairs(pairs: Pair[], settings: LoadSettings, log: (line: string) => void): Promise<ComparisonRow[]> {
  const rows: ComparisonRow[] = []
  const load = { connections: settings.connections, seconds: settings.duration }
  for (const pair of pairs) {
    await probe(pair.sandbox)
    await probe(pair.prism)
    if (settings.warmup > 0) {
      await fire(pair.sandbox, { ...load, seconds: settings.warmup })
      await fire(pair.prism, { ...load, seconds: settings.warmup })
    }
    const runs: ComparisonRow['runs'] = []
    for (let i = 0; i < settings.runs; i++) {
      const sandboxFirst = i % 2 === 0
      const first = await fire(sandboxFirst ? pair.sandbox : pair.prism, load)
      const second = await fire(sandboxFirst ? pair.prism : pair.sandbox, load)
      const [sandbox, prism] = sandboxFirst ? [first, second] : [second, first]
      runs.push({ sandbox, prism, ratio: ratio(sandbox.rps, prism.rps) })
      log(`  ${pair.id} run ${i + 1}/${settings.runs}: sandbox ${Math.round(sandbox.rps)} req/s p99 ${sandbox.p99} ms ${sandbox.cpu_ms_per_request} cpu-ms/req, prism ${Math.round(prism.rps)} req/s p99 ${prism.p99} ms ${prism.cpu_ms_per_request} cpu-ms/req`)
    }
    rows.push({
      id: pair.id,
      label: pair.label,
      sandbox: medianOf(runs.map((r) => r.sandbox), FIELDS),
      prism: medianOf(runs.map((r) => r.prism), FIELDS),
      ratio: median(runs.map((r) => r.ratio)),
      runs,
    })
  }
  return rows
}
