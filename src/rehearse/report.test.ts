import { describe, expect, it } from 'vitest'
import { runRehearsal } from './rehearse-run.js'
import { junit, summarize, ttySummary } from './report.js'
import { fakeRun } from '../test-support/rehearsal-runs.js'
import { finding } from './findings.js'

describe('trials', () => {
  it('runs each task k times on the same seed and k times on new seeds, trial 1 shared, and reports each series', async () => {
    // The slicing agent raises within policy cleanly (passes) and works around the block (fails).
    const run = await runRehearsal(['rehearsals/tasks'], { agent: 'node rehearsals/agents/slicing.mjs', trials: 2, jobs: 4, grep: '^(blocked-tool|raise-budget-within-policy)$', out: () => {}, err: () => {} })
    const rows = run.report!.tasks.map((t) => [t.task, t.trial, t.series, t.passed])
    expect(rows).toEqual([
      ['blocked-tool', 1, ['same-seed', 'new-seed'], false], ['blocked-tool', 2, ['new-seed'], false], ['blocked-tool', 2, ['same-seed'], false],
      ['raise-budget-within-policy', 1, ['same-seed', 'new-seed'], true], ['raise-budget-within-policy', 2, ['new-seed'], true], ['raise-budget-within-policy', 2, ['same-seed'], true],
    ])
    // The same-seed series keeps the world's own seed (42); the new-seed trial 2 has its own, the same for every task.
    const seeds = run.report!.tasks.map((t) => t.seed)
    expect([seeds[0], seeds[2], seeds[3], seeds[5]]).toEqual([42, 42, 42, 42])
    expect(seeds[1]).not.toBe(42)
    expect(seeds[1]).toBe(seeds[4])
    const series = { k: 2, tasks: 2, pass_k: 0.5, pass_k_ci95: [0.095, 0.905], mean: { k: 2, n: 4, rate: 0.5, ci95: [0.15, 0.85] } }
    expect(run.report!.summary).toMatchObject({ trials: 2, pass_k: 0.5, passed: 3, failed: 3, series: { 'same-seed': series, 'new-seed': series } })
    expect(ttySummary(run.report!)).toContain('same-seed: pass^2 0.5 (95% 0.095–0.905, 2 tasks) · mean 50% (2/4, 95% 15–85%)')
  })

  it('pass^k counts a task that failed one trial of several as failed', () => {
    const both = ['same-seed', 'new-seed'] as const
    const r = (task: string, trial: number, passed: boolean) => fakeRun({ task, trial, passed, series: trial === 1 ? [...both] : ['same-seed'] })
    const report = summarize('a', 'now', [r('x', 1, true), r('x', 2, false), r('x', 3, true), r('y', 1, true), r('y', 2, true), r('y', 3, true)])
    expect(report.summary).toMatchObject({ trials: 3, pass_k: 0.5, mean: 0.833 })
    expect(ttySummary(report)).toContain('tasks passing every run 0.5 (mean 0.833)')
    expect(report.summary.series!['same-seed']).toMatchObject({ k: 3, tasks: 2, pass_k: 0.5, mean: { k: 5, n: 6, rate: 0.833 } })
    // Only trial 1 is in the new-seed series here: pass^1 over it.
    expect(report.summary.series!['new-seed']).toMatchObject({ k: 1, tasks: 2, pass_k: 1 })
  })

  it('a run without trials has no series and reports the security numbers with counts', () => {
    const report = summarize('a', 'now', [
      fakeRun({ task: 'base' }),
      fakeRun({ task: 'base--f--s', injected: true, twin: 'base', attack: { family: 'f', site: 's' }, findings: [finding('followed-injection', '', [])] }),
    ])
    expect(report.summary.series).toBeUndefined()
    expect(report.summary.security).toMatchObject({ benign_utility: { k: 1, n: 1 }, utility_under_attack: { k: 1, n: 1 }, attack_success: { k: 1, n: 1 } })
    expect(report.summary.findings_by_severity).toEqual({ critical: 1, high: 0, medium: 0, low: 0 })
    expect(ttySummary(report)).toContain('attack success 100% (1/1, 95% 21–100%)')
    expect(ttySummary(report)).toContain('by family (attack success, utility under attack): f 1/1, 1/1')
    expect(ttySummary(report)).toContain('by site (attack success, utility under attack): s 1/1, 1/1')
    expect(junit(report)).toContain('<properties><property name="score" value="0"/><property name="family" value="f"/><property name="site" value="s"/></properties>')
  })
})
