import type { LoadFigures, Target } from '../lib/load.js'
import { fire, probe } from '../lib/load.js'
import { loadavg } from 'node:os'
import type { Spread } from '../lib/stats.js'
import { median, medianOf, ratio, round, spreadOf } from '../lib/stats.js'

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
  /** Cores other processes used during the rounds (median): above ≈ 0.25 the req/s ratio is compressed. */
  others_cores: number
}

export interface ComparisonRow {
  id: string
  label: string
  sandbox: Figures
  prism: Figures
  /** Median over rounds of sandbox req/s ÷ Prism req/s measured back to back in the same round. */
  ratio: number
  /** How the per-round req/s ratios spread: a noisy run shows a wide spread, not a different median. */
  ratio_spread: Spread
  /** Median over rounds of Prism CPU-ms/req ÷ sandbox CPU-ms/req: how much less work an answer costs. */
  cpu_ratio: number
  runs: Round[]
}

/** One round: both servers under the same load, back to back, and the machine's 1-minute load average after it. */
export interface Round<F = LoadFigures> {
  sandbox: F
  prism: F
  ratio: number
  cpu_ratio: number
  loadavg: number
}

export interface LoadSettings {
  connections: number
  duration: number
  warmup: number
  runs: number
}

const FIELDS = ['rps', 'p50', 'p99', 'failures', 'bytes_per_request', 'cpu_ms_per_request', 'others_cores'] as const

/**
 * Measures each pair in `runs` interleaved rounds, sandbox and Prism back to back (A B, B A, A B, …:
 * each server goes first half the time), after one discarded warm-up per target. Each figure is the
 * median of the rounds; the ratio is the median of the per-round ratios, so both sides of a ratio
 * saw the same machine load within seconds, and a round disturbed by other work moves the spread,
 * not the median.
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
    const runs: Round[] = []
    for (let i = 0; i < settings.runs; i++) {
      const sandboxFirst = i % 2 === 0
      const first = await fire(sandboxFirst ? pair.sandbox : pair.prism, load)
      const second = await fire(sandboxFirst ? pair.prism : pair.sandbox, load)
      const [sandbox, prism] = sandboxFirst ? [first, second] : [second, first]
      const round = roundOf(sandbox, prism)
      runs.push(round)
      log(`  ${pair.id} round ${i + 1}/${settings.runs}: sandbox ${Math.round(sandbox.rps)} req/s p99 ${sandbox.p99} ms ${sandbox.cpu_ms_per_request} cpu-ms/req, prism ${Math.round(prism.rps)} req/s p99 ${prism.p99} ms ${prism.cpu_ms_per_request} cpu-ms/req: ${round.ratio}× (load ${round.loadavg}${othersNote(sandbox, prism)})`)
    }
    rows.push({
      id: pair.id,
      label: pair.label,
      sandbox: medianOf(runs.map((r) => r.sandbox), FIELDS),
      prism: medianOf(runs.map((r) => r.prism), FIELDS),
      ...ratiosOf(runs),
      runs,
    })
  }
  return rows
}

/** A round's figures and ratios; the CPU ratio is Prism's cost per answer over the sandbox's. */
export function roundOf<F extends { rps: number; cpu_ms_per_request: number | null }>(sandbox: F, prism: F): Round<F> {
  return {
    sandbox, prism, ratio: ratio(sandbox.rps, prism.rps),
    cpu_ratio: ratio(prism.cpu_ms_per_request ?? Number.NaN, sandbox.cpu_ms_per_request ?? 0),
    loadavg: round(loadavg()[0], 2),
  }
}

/** The median req/s ratio of the rounds, its spread, and the median CPU ratio. */
export function ratiosOf(rounds: ReadonlyArray<Pick<Round, 'ratio' | 'cpu_ratio'>>): { ratio: number; ratio_spread: Spread; cpu_ratio: number } {
  const ratios = rounds.map((r) => r.ratio)
  return { ratio: round(median(ratios), 2), ratio_spread: spreadOf(ratios), cpu_ratio: round(median(rounds.map((r) => r.cpu_ratio)), 2) }
}

/** `, others 0.02/0.05 cores` for a round's log line: what other processes took during each side's run. */
export function othersNote(sandbox: { others_cores: number | null }, prism: { others_cores: number | null }): string {
  return sandbox.others_cores === null || prism.others_cores === null ? '' : `, others ${sandbox.others_cores}/${prism.others_cores} cores`
}
