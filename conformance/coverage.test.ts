import { describe, expect, it } from 'vitest'
import { computeCoverage } from './coverage.js'
import { runScenarios } from './runner.js'
import type { ScenarioResult } from './types.js'

const result = (id: string, outcome: ScenarioResult['outcome'], baseline?: ScenarioResult['baseline']): ScenarioResult =>
  ({ id, file: `${id}.yaml`, title: id, covers: [], tags: [], outcome, steps: [], duration_ms: 0, ...(baseline ? { baseline } : {}) })

describe('rule coverage counts only scenarios that passed in this run', () => {
  const scenarios = [
    { id: 'a', covers: ['KEY-01'] },
    { id: 'b', covers: ['KEY-02'] },
    { id: 'c', covers: ['KEY-03'] },
    { id: 'd', covers: ['KEY-03', 'KEY-05'] },
    { id: 'e', covers: ['KEY-06'] },
    { id: 'f', covers: ['KEY-07'] },
    { id: 'g', covers: ['KEY-08'] },
  ]
  const results = [
    result('a', 'passed'),
    result('b', 'failed'),
    result('c', 'skipped'),
    result('e', 'failed', { reason: 'known', stale: false }),
    result('f', 'passed', { reason: 'was broken', stale: true }),
    result('g', 'failed'),
  ]
  const coverage = computeCoverage(scenarios, [...results, result('g2', 'passed')], [])
  const state = (id: string) => coverage.rules.find((r) => r.id === id)?.state

  it.each([
    ['KEY-01', 'passing', 'a scenario that ran and passed'],
    ['KEY-02', 'failing', 'its only scenario failed'],
    ['KEY-03', 'not run', 'one scenario was skipped, the other not selected'],
    ['KEY-05', 'not run', 'its scenario was not selected'],
    ['KEY-06', 'failing', 'its scenario is a known failure (baseline)'],
    ['KEY-07', 'passing', 'its scenario passed, though the baseline entry is stale'],
    ['KEY-04', 'not covered', 'no scenario names it'],
  ])('%s is %s when %s', (id, expected) => {
    expect(state(id)).toBe(expected)
  })

  it('gates on every id that is not passing, and the percentage is the passing share', () => {
    const gated = coverage.rules.length
    expect(coverage.uncovered).not.toContain('KEY-01')
    expect(coverage.uncovered).toEqual(expect.arrayContaining(['KEY-02', 'KEY-03', 'KEY-04', 'KEY-05', 'KEY-06']))
    expect(coverage.uncovered).toHaveLength(gated - 2)
    expect(coverage.states.passing).toEqual(['KEY-01', 'KEY-07'])
    expect(coverage.percent).toBe(Math.round((1000 * 2) / gated) / 10)
  })
})

describe('path, tag, --covers and --grep selections agree on coverage', { timeout: 90_000 }, () => {
  const FX = 'conformance/test-fixtures'
  const selections: Array<[string, object]> = [
    ['a path', { paths: [`${FX}/pass/A-01-pass.yaml`] }],
    ['--covers', { paths: [FX], covers: ['KEY-01'] }],
    ['--grep', { paths: [FX], grep: 'creates a secret' }],
    ['a tag', { paths: [`${FX}/pass`], tags: ['spec'] }],
  ]

  it.each(selections)('selecting fx.pass by %s covers KEY-01 only, and the gate fails (exit 4)', async (_name, selection) => {
    const run = await runScenarios({ baseline: null, coverage: true, ...selection })
    expect(run.scenarios.filter((r) => r.outcome !== 'skipped').map((r) => r.id)).toEqual(['fx.pass'])
    expect(run.coverage.states.passing).toEqual(['KEY-01'])
    expect(run.coverage.percent).toBeLessThan(10)
    expect(run.exitCode).toBe(4)
  })
})
