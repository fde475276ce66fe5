import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { parseYaml } from '../src/support/yaml-schema.js'
import type { ScenarioResult } from './types.js'

const baselineSchema = z.strictObject({
  known_failures: z.array(z.strictObject({ scenario: z.string(), reason: z.string().min(1) })).default([]),
})

export type Baseline = Map<string, string>

/** Known failures (`conformance/baseline.yaml`): scenario id → reason. */
export async function loadBaseline(file: string): Promise<Baseline> {
  const text = await readFile(file, 'utf8').catch(() => null)
  if (text === null) return new Map()
  const parsed = parseYaml(text, file, baselineSchema)
  return new Map(parsed.known_failures.map((k) => [k.scenario, k.reason]))
}

/** Marks listed results: an expected failure, or stale (it passed, so the entry must go). */
export function applyBaseline(results: ScenarioResult[], baseline: Baseline): void {
  for (const result of results) {
    const reason = baseline.get(result.id)
    if (reason === undefined || result.outcome === 'skipped') continue
    result.baseline = { reason, stale: result.outcome === 'passed' }
  }
}
