import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { parseYaml } from '../src/support/yaml-schema.js'
import type { ScenarioResult } from './types.js'

const baselineSchema = z.strictObject({
  known_failures: z.array(z.strictObject({
    scenario: z.string(),
    reason: z.string().min(1),
    /** SDK mode only: `name` (any version) or `name@version`, as the adapter's `version` op answers. */
    sdk: z.string().min(1).optional(),
  })).default([]),
})

export type Baseline = Map<string, string>

/**
 * Known failures (`conformance/baseline.yaml`): scenario id → reason. An entry with `sdk` applies
 * only to a run of that SDK (and version, when given), so a fixed release shows up as stale.
 */
export async function loadBaseline(file: string, run: { sdk?: string } = {}): Promise<Baseline> {
  const text = await readFile(file, 'utf8').catch(() => null)
  if (text === null) return new Map()
  const parsed = parseYaml(text, file, baselineSchema)
  return new Map(parsed.known_failures.filter((k) => sdkMatches(k.sdk, run.sdk)).map((k) => [k.scenario, k.reason]))
}

function sdkMatches(entry: string | undefined, sdk: string | undefined): boolean {
  if (entry === undefined) return true
  if (sdk === undefined) return false
  return entry === sdk || entry === sdk.slice(0, Math.max(0, sdk.lastIndexOf('@')))
}

/** Marks listed results: an expected failure, or stale (it passed, so the entry must go). */
export function applyBaseline(results: ScenarioResult[], baseline: Baseline): void {
  for (const result of results) {
    const reason = baseline.get(result.id)
    if (reason === undefined || result.outcome === 'skipped') continue
    result.baseline = { reason, stale: result.outcome === 'passed' }
  }
}
