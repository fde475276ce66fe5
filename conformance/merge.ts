import { readFile } from 'node:fs/promises'
import type { Reporter, RunResult } from './runner.js'
import { summarize } from './runner.js'
import { computeCoverage } from './coverage.js'
import { Secrets } from './secrets.js'
import type { ScenarioResult } from './types.js'
import { exitCodeOf } from './exit-codes.js'

/**
 * Combines the JSON reports of a sharded run (`--shard i/n --reporter json:…`) into one result and
 * renders it with the given reporters. Coverage is recomputed over every shard's scenarios.
 */
export async function mergeReports(files: string[], options: { reporters?: Reporter[]; coverage?: boolean; allowEmpty?: boolean } = {}): Promise<RunResult> {
  const runs = await Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8')) as RunResult))
  const byId = new Map(runs.flatMap((r) => r.scenarios).map((s) => [s.id, s]))
  const scenarios = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id))
  const summary = summarize(scenarios, Math.max(0, ...runs.map((r) => r.summary.duration_ms)))
  const coverage = { ...computeCoverage(loadedScenarios(runs, scenarios), scenarios), gated: options.coverage === true }
  const run: RunResult = {
    scenarios,
    summary,
    coverage,
    target: [...new Set(runs.map((r) => r.target))].join('; '),
    // The first shard's metadata, its shard field naming what was merged (the HTML report's header).
    ...(runs[0]?.meta ? { meta: { ...runs[0].meta, shard: `merged: ${runs.map((r) => r.meta?.shard ?? '?').join(', ')}` } } : {}),
    exitCode: exitCodeOf(summary, coverage, options),
  }
  const secrets = new Secrets()
  for (const r of options.reporters ?? []) {
    r.onEvent?.({ type: 'run-end', run }, secrets)
    await r.finish?.(run, secrets)
  }
  return run
}

/**
 * Every scenario the shards loaded, read back from their coverage matrices: a scenario no shard ran
 * (deselected by a tag everywhere) still covers its rules, and one that no shard could run for a
 * missing capability stays not applicable.
 */
function loadedScenarios(runs: RunResult[], results: ScenarioResult[]): Array<{ id: string; covers: string[]; notApplicable: boolean }> {
  const covers = new Map<string, Set<string>>()
  const notApplicable = new Set<string>()
  const add = (id: string, rule: string) => covers.set(id, (covers.get(id) ?? new Set()).add(rule))
  for (const run of runs) {
    for (const rule of run.coverage?.rules ?? []) {
      for (const sc of rule.scenarios) {
        add(sc.id, rule.id)
        if (sc.outcome === 'not applicable') notApplicable.add(sc.id)
      }
    }
  }
  for (const r of results) r.covers.forEach((rule) => add(r.id, rule))
  return [...covers].map(([id, rules]) => ({ id, covers: [...rules], notApplicable: notApplicable.has(id) }))
}
