import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import type { Scenario } from './schema.js'
import type { RunSummary, ScenarioResult, StepResult } from './types.js'
import type { Selection } from './selection.js'
import type { TargetFactory, TargetSpec } from './targets.js'
import type { CoverageReport } from './coverage.js'
import { loadScenarios } from './loader.js'
import { selectScenarios } from './selection.js'
import { toFactory } from './targets.js'
import { Contract, OPENAPI_PATH } from './contract.js'
import { runScenario } from './run-scenario.js'
import { renameIds } from './world-copies.js'
import { Secrets } from './secrets.js'
import { applyBaseline, loadBaseline } from './baseline.js'
import { computeCoverage } from './coverage.js'
import { exitCodeOf } from './exit-codes.js'
import type { RunExitCode } from './exit-codes.js'
import { startPrismProxy } from './prism-proxy.js'
import { inParallel } from '../src/support/pool.js'

/** What a run emits, in order; reporters render these (the runner never prints). */
export type RunEvent =
  | { type: 'run-start'; total: number; target: string; jobs: number; resets?: string; copies?: boolean }
  | { type: 'scenario-start'; id: string; title: string }
  | { type: 'step'; scenario: string; result: StepResult }
  | { type: 'scenario-end'; result: ScenarioResult }
  | { type: 'run-end'; run: RunResult }

export interface Reporter {
  onEvent?(event: RunEvent, secrets: Secrets): void
  /** Called once at the end; write files here. */
  finish?(run: RunResult, secrets: Secrets): Promise<void> | void
}

export interface RunOptions extends Selection {
  /** Scenario files or folders; default `scenarios/`. */
  paths?: string[]
  target?: TargetSpec | TargetFactory
  reporters?: Reporter[]
  onEvent?: (event: RunEvent) => void
  /** Parallel scenarios (isolated targets only); default: the number of cores. */
  jobs?: number
  /** `inline` (prism-http validators, default), `prism-proxy`, or `off`. */
  contract?: 'inline' | 'prism-proxy' | 'off'
  /** What a violation does: fail the step (`error`, default) or only report (`warn`). */
  contractSeverity?: 'error' | 'warn'
  openapi?: string
  /** Known failures file; default `conformance/baseline.yaml` when it exists. */
  baseline?: string | null
  /** Enforce the rule-coverage gate (exit 4). */
  coverage?: boolean
  /** A run in which no scenario ran (all filtered out or skipped) exits 0 instead of 5. */
  allowEmpty?: boolean
  /** Rule-id prefixes left out of the gate; default from `conformance/coverage.yaml`. */
  coverageExclude?: string[]
  env?: Record<string, string | undefined>
  /** Values redacted from every report (e.g. real keys). */
  secrets?: string[]
}

export interface RunResult {
  scenarios: ScenarioResult[]
  summary: RunSummary
  coverage: CoverageReport
  target: string
  /** SDK mode: the SDK under test (`name@version`). */
  sdk?: string
  /** When and how the run ran (the HTML report's header); absent in reports older than issue 15. */
  meta?: RunMeta
  /** 0 pass, 1 failures/violations/stale baseline, 4 coverage gate, 5 nothing ran (2 and 3 are thrown). */
  exitCode: RunExitCode
}

export interface RunMeta {
  /** The kit's version (package.json). */
  version: string
  started_at: string
  /** The run id: key names and other per-run values in scenarios derive from it (`${{ run.id }}`). */
  seed: string
  jobs: number
  shard?: string
  tags?: string[]
}

/**
 * Loads, selects and runs scenarios; returns the results as data and emits events. Throws
 * `ScenarioLoadError` (exit 2) and `TargetUnreachableError` (exit 3).
 */
export async function runScenarios(options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now()
  const startedAt = new Date().toISOString()
  const all = await loadScenarios(options.paths ?? ['scenarios'])
  const selected = selectScenarios(all, options)
  const given = toFactory(options.target)
  let factory = given
  await factory.probe()
  // Loaded before the run so each scenario-end event already says "known failure" (issue 15).
  const baseline = options.baseline === null ? new Map() : await loadBaseline(options.baseline ?? 'conformance/baseline.yaml', { sdk: given.sdk })
  const proxy = options.contract === 'prism-proxy' ? await startPrismProxy(factory, options.openapi ?? OPENAPI_PATH) : null
  if (proxy) factory = proxy.factory
  const contract = options.contract === 'off' ? null : proxy ? proxy.contract : await Contract.load(options.openapi ?? OPENAPI_PATH)
  const secrets = new Secrets()
  options.secrets?.forEach((s, i) => secrets.add(`key${i + 1}`, s))
  const emit = (event: RunEvent) => {
    options.onEvent?.(event)
    for (const r of options.reporters ?? []) r.onEvent?.(event, secrets)
  }
  const jobs = factory.isolated ? Math.max(1, options.jobs ?? availableParallelism()) : 1
  // A running sandbox is reset to each scenario's world (or gets copies of it): say so before anything is lost (issue 18).
  const resets = given.kind === 'url' ? given.describe.replace(/^running sandbox at /, '') : undefined
  emit({ type: 'run-start', total: selected.length, target: factory.describe, jobs, ...(resets ? { resets, copies: factory.isolated } : {}) })
  const runId = randomBytes(4).toString('hex')
  const runOne = async (scenario: Scenario): Promise<ScenarioResult> => {
    emit({ type: 'scenario-start', id: scenario.id, title: scenario.title })
    const target = await factory.open(scenario)
    try {
      // In a world copy (issue 19) the scenario's world ids name the copy's users, workspaces and connections.
      const result = await runScenario(target.renames ? renameIds(scenario, target.renames) : scenario, {
        target, contract, runId, secrets,
        contractMode: options.contractSeverity ?? 'error',
        env: options.env ?? process.env,
        onStep: (step) => emit({ type: 'step', scenario: scenario.id, result: step }),
      })
      applyBaseline([result], baseline)
      emit({ type: 'scenario-end', result })
      return result
    } finally {
      await target.close()
    }
  }
  let results: ScenarioResult[]
  try {
    const alone = (s: Scenario) => runsAlone(s) || factory.runsAlone?.(s) === true
    const parallel = await inParallel(selected.filter((s) => !alone(s)), jobs, runOne)
    const serial = await inParallel(selected.filter(alone), 1, runOne)
    results = [...parallel, ...serial].sort((a, b) => a.id.localeCompare(b.id))
  } finally {
    await proxy?.close()
  }
  const sdk = given.sdk
  // A shard sees a part of the rules: its coverage never gates; `conform merge --coverage` gates the whole (issue 37).
  const deferred = options.coverage === true && options.shard !== undefined
  const coverage = { ...computeCoverage(all, results, options.coverageExclude, factory.capabilities), gated: options.coverage === true && !deferred, ...(deferred ? { deferred } : {}) }
  const summary = summarize(results, performance.now() - started)
  const run: RunResult = {
    scenarios: results,
    summary,
    coverage,
    target: factory.describe,
    ...(sdk ? { sdk } : {}),
    meta: { version: kitVersion(), started_at: startedAt, seed: runId, jobs, ...(options.shard ? { shard: options.shard } : {}), ...(options.tags?.length ? { tags: options.tags } : {}) },
    exitCode: exitCodeOf(summary, coverage, { ...options, coverage: coverage.gated }),
  }
  emit({ type: 'run-end', run })
  for (const r of options.reporters ?? []) await r.finish?.(run, secrets)
  return run
}

/** Counts; an expected (baselined) failure is not a failure, a stale entry is. */
export function summarize(results: ScenarioResult[], duration: number): RunSummary {
  const count = (f: (r: ScenarioResult) => boolean) => results.filter(f).length
  return {
    passed: count((r) => r.outcome === 'passed' && !r.baseline),
    failed: count((r) => r.outcome === 'failed' && !r.baseline),
    skipped: count((r) => r.outcome === 'skipped'),
    violations: results.reduce((n, r) => n + r.steps.reduce((m, s) => m + s.violations.filter((v) => v.severity === 'error').length, 0), 0),
    expected_failures: count((r) => r.outcome === 'failed' && r.baseline !== undefined),
    stale: count((r) => r.baseline?.stale === true),
    duration_ms: Math.round(duration),
  }
}

/** The version in the package.json next to this kit (source or dist). */
function kitVersion(): string {
  const file = fileURLToPath(new URL('../package.json', import.meta.url)).replace('/dist/package.json', '/package.json')
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

/** `isolation: serial` (or the older `serial: true`): no other scenario runs at the same time. */
function runsAlone(scenario: Scenario): boolean {
  return scenario.serial || scenario.isolation === 'serial'
}
