import { describe, expect, it } from 'vitest'
import { runScenarios } from './runner.js'
import { firstFailure } from './reporters/format.js'

describe('the scenario suite against the in-process sandbox', () => {
  it('passes every scenario with 100 % rule coverage and zero contract violations', async () => {
    const started = performance.now()
    // In-process scenarios wait on I/O, not CPU: more than one per core finishes sooner.
    const run = await runScenarios({ paths: ['scenarios'], coverage: true, contract: 'inline', jobs: 8 })
    const wall = ((performance.now() - started) / 1000).toFixed(2)
    const s = run.summary
    console.log(`conformance suite: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.expected_failures} expected failures, ${s.violations} contract violations, rule coverage ${run.coverage.percent}% — wall time ${wall} s`)
    const failures = run.scenarios.filter((r) => (r.outcome === 'failed' && !r.baseline) || r.baseline?.stale)
      .map((r) => `${r.id} (${r.file}): ${r.baseline?.stale ? 'stale baseline entry' : firstFailure(r.steps)?.label + ': ' + r.reason}`)
    expect(failures, failures.join('\n')).toEqual([])
    expect(run.coverage.uncovered).toEqual([])
    expect(run.coverage.unknown).toEqual([])
    expect(s.violations).toBe(0)
    // The bench target is a suite of 100+ scenarios in ≤ 10 s; at least 90 of them run in-process (the rest need --sdk).
    expect(run.scenarios.length).toBeGreaterThanOrEqual(100)
    expect(s.passed).toBeGreaterThanOrEqual(90)
    expect(run.exitCode).toBe(0)
  }, 180_000)
})
