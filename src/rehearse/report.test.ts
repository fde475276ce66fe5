import { describe, expect, it } from 'vitest'
import { runRehearsal } from './rehearse-run.js'

describe('trials', () => {
  it('runs each task k times and reports pass^k next to the mean', async () => {
    // The slicing agent raises within policy cleanly (passes) and works around the block (fails).
    const run = await runRehearsal(['rehearsals/tasks'], { agent: 'node rehearsals/agents/slicing.mjs', trials: 2, jobs: 4, grep: '^(blocked-tool|raise-budget-within-policy)$', out: () => {}, err: () => {} })
    expect(run.report!.tasks.map((t) => [t.task, t.trial, t.passed])).toEqual([['blocked-tool', 1, false], ['blocked-tool', 2, false], ['raise-budget-within-policy', 1, true], ['raise-budget-within-policy', 2, true]])
    expect(run.report!.summary).toMatchObject({ trials: 2, pass_k: 0.5, mean: 0.5, passed: 2, failed: 2 })
    // A fresh world with a new seed per trial: the first keeps the world's own (42), the second not.
    const seeds = run.report!.tasks.map((t) => t.seed)
    expect(seeds[0]).toBe(42)
    expect(seeds[1]).not.toBe(42)
    expect(seeds[1]).toBe(seeds[3])
  })

  it('pass^k counts a task that failed one trial of several as failed', async () => {
    const { summarize } = await import('./report.js')
    const run = (task: string, trial: number, passed: boolean) => ({ task, trial, passed, efficiency: { calls: 0, credits: 0 }, findings: [] }) as unknown as Parameters<typeof summarize>[2][number]
    const report = summarize('a', 'now', [run('x', 1, true), run('x', 2, false), run('x', 3, true), run('y', 1, true), run('y', 2, true), run('y', 3, true)])
    expect(report.summary).toMatchObject({ trials: 3, pass_k: 0.5, mean: 0.833 })
  })
})
