import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { computeCoverage } from '../coverage.js'
import { EXIT } from '../exit-codes.js'
import type { RunResult } from '../runner.js'
import { summarize } from '../runner.js'
import type { ScenarioResult } from '../types.js'
import type { Property } from './actions.js'
import { PROPERTIES } from './actions.js'
import { rulesOf, scenarioYaml } from './assemble.js'
import type { ExploreResult } from './explore.js'

/** Each finding written as `<dir>/explore-<property>-<n>.yaml`; the files, in finding order. */
export async function writeFindings(result: ExploreResult, dir: string): Promise<string[]> {
  if (result.findings.length === 0) return []
  await mkdir(dir, { recursive: true })
  const counts = new Map<Property, number>()
  const files: string[] = []
  for (const finding of result.findings) {
    const n = (counts.get(finding.property) ?? 0) + 1
    counts.set(finding.property, n)
    const file = join(dir, `explore-${finding.property}-${n}.yaml`)
    await writeFile(file, scenarioYaml(finding.scenario, finding.property, finding.reason, n))
    files.push(file)
  }
  return files
}

/**
 * The exploration as a conformance run, so `--reporter` renders it like any run: one scenario
 * result per property, failed with its findings (each naming its reproduction file) or passed.
 */
export function exploreRun(result: ExploreResult, target: string, files: string[]): RunResult {
  const scenarios: ScenarioResult[] = (Object.keys(PROPERTIES) as Property[]).map((property) => {
    const found = result.findings.map((f, i) => ({ f, file: files[i] })).filter(({ f }) => f.property === property)
    return {
      id: `explore.${property}`,
      file: found[0]?.file ?? '<explore>',
      title: PROPERTIES[property],
      covers: rulesOf(property),
      tags: ['explore'],
      outcome: found.length ? 'failed' : 'passed',
      ...(found.length ? { reason: found.map(({ f, file }) => `${f.reason} (reproduce: conform ${file ?? '…'})`).join('\n') } : {}),
      steps: [],
      duration_ms: 0,
    }
  })
  const summary = summarize(scenarios, result.duration_ms)
  return {
    scenarios,
    summary,
    coverage: { ...computeCoverage([], scenarios, []), gated: false },
    target,
    meta: { version: 'explore', started_at: new Date(Date.now() - result.duration_ms).toISOString(), seed: String(result.seed), jobs: 1 },
    exitCode: result.findings.length ? EXIT.failed : EXIT.passed,
  }
}
