import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import type { Scenario } from './schema.js'
import type { Outcome, ScenarioResult } from './types.js'

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url)).replace('/dist/conformance/', '/conformance/')

/** The shipped copy of RULES.md's ids (`conformance/rule-ids.txt`): `ID text` per line. */
export function shippedRules(): Array<{ id: string; text: string }> {
  return readFileSync(here('./rule-ids.txt'), 'utf8').split('\n').filter((l) => /^[A-Z]+-\d{2}\b/.test(l))
    .map((l) => ({ id: l.slice(0, l.indexOf(' ') > 0 ? l.indexOf(' ') : undefined), text: l.slice(l.indexOf(' ') + 1) }))
}

/** Rule ids found in a RULES.md text (`- KEY-01 …` lines). */
export function ruleIdsIn(markdown: string): string[] {
  return [...markdown.matchAll(/^- ([A-Z]+-\d{2}) /gm)].map((m) => m[1])
}

/** Prefixes left out of the gate until their issues land (`conformance/coverage.yaml`). */
export function coverageExclusions(): string[] {
  const config = parse(readFileSync(here('./coverage.yaml'), 'utf8')) as { exclude?: Array<{ prefix: string }> }
  return (config.exclude ?? []).map((e) => e.prefix)
}

export interface RuleCoverage {
  id: string
  text: string
  excluded: boolean
  scenarios: Array<{ id: string; outcome: Outcome | 'not run' }>
}

export interface CoverageReport {
  rules: RuleCoverage[]
  /** Gated rule ids that no scenario covers. */
  uncovered: string[]
  /** Ids named by scenarios that RULES.md does not know. */
  unknown: string[]
  percent: number
  /** True when the run enforced the gate (`--coverage`). */
  gated?: boolean
}

/** Which scenarios cover each rule, with their outcome in this run. */
export function computeCoverage(scenarios: Array<Pick<Scenario, 'id' | 'covers'>>, results: ScenarioResult[], exclude = coverageExclusions()): CoverageReport {
  const outcome = new Map(results.map((r) => [r.id, r.outcome]))
  const known = shippedRules()
  const rules = known.map(({ id, text }) => ({
    id,
    text,
    excluded: exclude.some((p) => id.startsWith(`${p}-`)),
    scenarios: scenarios.filter((s) => s.covers.includes(id)).map((s) => ({ id: s.id, outcome: outcome.get(s.id) ?? ('not run' as const) })),
  }))
  const gated = rules.filter((r) => !r.excluded)
  const uncovered = gated.filter((r) => r.scenarios.length === 0).map((r) => r.id)
  const ids = new Set(known.map((r) => r.id))
  const unknown = [...new Set(scenarios.flatMap((s) => s.covers).filter((c) => !ids.has(c)))]
  const percent = gated.length ? Math.round((1000 * (gated.length - uncovered.length)) / gated.length) / 10 : 100
  return { rules, uncovered, unknown, percent }
}
