import type { CoverageReport } from './coverage.js'
import type { RunSummary } from './types.js'

/**
 * The exit codes of `adops-sandbox conform` (docs/conformance.md "Exit codes"). 2 (scenario or
 * usage error) and 3 (target or SDK adapter unreachable) are thrown before a run starts.
 */
export const EXIT = { passed: 0, failed: 1, usage: 2, unreachable: 3, coverage: 4, empty: 5 } as const

export type RunExitCode = 0 | 1 | 4 | 5

/**
 * A run's verdict: failures (or a stale baseline entry) first; then a run in which no scenario
 * ran at all (everything filtered out or skipped), unless `allowEmpty`; then the coverage gate.
 */
export function exitCodeOf(summary: RunSummary, coverage: Pick<CoverageReport, 'uncovered'>, options: { coverage?: boolean; allowEmpty?: boolean }): RunExitCode {
  if (summary.failed > 0 || summary.stale > 0) return EXIT.failed
  const ran = summary.passed + summary.failed + summary.expected_failures + summary.stale
  if (ran === 0 && !options.allowEmpty) return EXIT.empty
  if (options.coverage && coverage.uncovered.length > 0) return EXIT.coverage
  return EXIT.passed
}
