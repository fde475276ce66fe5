import type { RunResult } from './runner.js'
import { runScenarios } from './runner.js'
import type { TargetSpec } from './targets.js'
import type { DriftComparison } from './drift-compare.js'
import { compareRuns } from './drift-compare.js'

export interface DriftOptions {
  /** The deployment (or running sandbox) to hold against the sandbox. */
  target: Extract<TargetSpec, { kind: 'real' } | { kind: 'url' }>
  /** Scenario files or folders; default `scenarios/`. */
  paths?: string[]
  /** Default `spec` (and never `slow`): the scenarios that check the spec, not sandbox extras. */
  tags?: string[]
  covers?: string[]
  grep?: string
  jobs?: number
  env?: Record<string, string | undefined>
  /** Values to keep out of every report (the target's keys). */
  secrets?: string[]
  /** Called as each side finishes, for progress lines. */
  onSide?: (side: 'target' | 'sandbox', run: RunResult) => void
}

export interface DriftResult {
  comparison: DriftComparison
  /** One line per side: what ran and its verdicts. */
  sides: { sandbox: RunResult['summary']; target: RunResult['summary'] }
  target: string
  scenarios: number
  /** 0 no drift, 1 drift found, 5 nothing could be compared. */
  exitCode: 0 | 1 | 5
}

/**
 * `conform --drift` (issue 19 item 5): runs the same scenarios against a fresh in-process sandbox
 * and against the target, then compares them step by step (status, error code, field presence and
 * types, content type, watched headers). The target runs first, so an unreachable one stops the
 * run before the sandbox spends anything (TargetUnreachableError, exit 3).
 */
export async function runDrift(options: DriftOptions): Promise<DriftResult> {
  const common = {
    paths: options.paths,
    tags: options.tags ?? ['spec', '~slow'],
    covers: options.covers,
    grep: options.grep,
    jobs: options.jobs,
    env: options.env,
    secrets: options.secrets,
    baseline: null,
    allowEmpty: true,
    contract: 'inline' as const,
  }
  const target = await runScenarios({ ...common, target: options.target })
  options.onSide?.('target', target)
  const sandbox = await runScenarios({ ...common, target: { kind: 'sandbox' } })
  options.onSide?.('sandbox', sandbox)
  const comparison = compareRuns(sandbox.scenarios, target.scenarios)
  const exitCode = comparison.compared === 0 ? 5 : comparison.findings.length > 0 ? 1 : 0
  return { comparison, sides: { sandbox: sandbox.summary, target: target.summary }, target: target.target, scenarios: sandbox.scenarios.length, exitCode }
}
