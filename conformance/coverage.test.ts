import { describe, expect, it } from 'vitest'
import { computeCoverage } from './coverage.js'
import { runScenarios } from './runner.js'
import type { ScenarioResult } from './types.js'

const result = (id: string, outcome: ScenarioResult['outcome'], baseline?: ScenarioResult['baseline'], reason?: string): ScenarioResult =>
  ({ id, file: `${id}.yaml`, title: id, covers: [], tags: [], outcome, steps: [], duration_ms: 0, ...(baseline ? { baseline } : {}), ...(reason ? { reason } : {}) })

describe('rule coverage counts only scenarios that passed in this run', () => {
  const scenarios = [
    { id: 'a', covers: ['KEY-01'] },
    { id: 'b', covers: ['KEY-02'] },
    { id: 'c', covers: ['KEY-03'] },
    { id: 'd', covers: ['KEY-03', 'KEY-05'] },
    { id: 'e', covers: ['KEY-06'] },
    { id: 'f', covers: ['KEY-07'] },
    { id: 'g', covers: ['KEY-08'] },
    { id: 'h1', covers: ['KEY-09'] },
    { id: 'h2', covers: ['KEY-09'] },
    { id: 'i', covers: ['KEY-10'] },
    { id: 'j1', covers: ['KEY-11'] },
    { id: 'j2', covers: ['KEY-11'] },
    { id: 'k1', covers: ['KEY-12'] },
    { id: 'k2', covers: ['KEY-12'] },
  ]
  const results = [
    result('a', 'passed'),
    result('b', 'failed'),
    result('c', 'skipped'),
    result('e', 'failed', { reason: 'known', stale: false }),
    result('f', 'passed', { reason: 'was broken', stale: true }),
    result('g', 'failed'),
    result('h1', 'passed'),
    result('h2', 'failed'),
    result('i', 'skipped', undefined, 'target lacks capability sdk'),
    result('j1', 'skipped', undefined, 'target lacks capability sdk'),
    result('j2', 'skipped', undefined, 'run the app: target lacks capability clock'),
    result('k1', 'skipped', undefined, 'target lacks capability sdk'),
    result('k2', 'passed'),
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
    ['KEY-09', 'failing', 'one of its scenarios passed and another failed (partly is not a pass)'],
    ['KEY-10', 'not applicable', 'its scenario needs a capability the target lacks'],
    ['KEY-11', 'not applicable', 'every scenario needs a capability (the scenario’s or a step’s) the target lacks'],
    ['KEY-12', 'passing', 'one scenario needs a missing capability and the other passed'],
  ])('%s is %s when %s', (id, expected) => {
    expect(state(id)).toBe(expected)
  })

  it('gates on every applicable id that is not passing; not applicable ids are named and left out of the percentage', () => {
    const applicable = coverage.rules.length - 2
    expect(coverage.uncovered).not.toContain('KEY-01')
    expect(coverage.uncovered).toEqual(expect.arrayContaining(['KEY-02', 'KEY-03', 'KEY-04', 'KEY-05', 'KEY-06', 'KEY-09']))
    expect(coverage.uncovered).not.toEqual(expect.arrayContaining(['KEY-10']))
    expect(coverage.uncovered).not.toContain('KEY-11')
    expect(coverage.uncovered).toHaveLength(applicable - 3)
    expect(coverage.states.passing).toEqual(['KEY-01', 'KEY-07', 'KEY-12'])
    expect(coverage.states['not applicable']).toEqual(['KEY-10', 'KEY-11'])
    expect(coverage.percent).toBe(Math.round((1000 * 3) / applicable) / 10)
  })

  it('a scenario left out by a filter that needs a capability the target lacks makes its rule not applicable, not "not run"', () => {
    const loaded = [{ id: 'slow-sdk', covers: ['KEY-01'], requires: ['sdk'] }, { id: 'plain', covers: ['KEY-02'], requires: [] }]
    const cov = computeCoverage(loaded, [], [], new Set(['control', 'clock']))
    expect(cov.rules.find((r) => r.id === 'KEY-01')?.state).toBe('not applicable')
    expect(cov.rules.find((r) => r.id === 'KEY-02')?.state).toBe('not run')
    expect(cov.uncovered).toContain('KEY-02')
    expect(cov.uncovered).not.toContain('KEY-01')
  })

  it('counts a failing rule for every rule a failed scenario covers, so the summary matches the scenario counts', () => {
    const failedScenarios = results.filter((r) => r.outcome === 'failed')
    const failedRules = new Set(failedScenarios.flatMap((r) => scenarios.find((s) => s.id === r.id)!.covers))
    expect(new Set(coverage.states.failing)).toEqual(failedRules)
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

  it('a shard never gates: its coverage is a part, and the gate waits for merge', async () => {
    const run = await runScenarios({ baseline: null, coverage: true, paths: [`${FX}/pass/A-01-pass.yaml`], shard: '1/1' })
    expect(run.coverage.percent).toBeLessThan(10)
    expect(run.coverage).toMatchObject({ gated: false, deferred: true })
    expect(run.exitCode).toBe(0)
  })
})
