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

/**
 * A rule id's state in one run (docs/conformance.md "Coverage semantics"): `passing` when a
 * scenario covering it ran and passed; `failing` when the ones that ran all failed (a known failure
 * from the baseline included); `not run` when scenarios cover it but none ran (skipped, filtered
 * out by path, tag, `--covers`, `--grep` or shard); `not covered` when no loaded scenario names it.
 */
export type RuleState = 'passing' | 'failing' | 'not run' | 'not covered'
export const RULE_STATES: readonly RuleState[] = ['passing', 'failing', 'not run', 'not covered']

export interface RuleCoverage {
  id: string
  text: string
  excluded: boolean
  state: RuleState
  scenarios: Array<{ id: string; outcome: Outcome | 'not run' }>
}

export interface CoverageReport {
  rules: RuleCoverage[]
  /** Gated rule ids not covered by a scenario that passed in this run (the `--coverage` gate). */
  uncovered: string[]
  /** Gated rule ids per state. */
  states: Record<RuleState, string[]>
  /** Ids named by scenarios that RULES.md does not know. */
  unknown: string[]
  /** Share of gated rule ids that are `passing`. */
  percent: number
  /** True when the run enforced the gate (`--coverage`). */
  gated?: boolean
}

/**
 * Each rule's state in this run. `scenarios` are the loaded ones (selected or not), `results` what
 * ran; a rule counts as covered only by a passing result, so every selection (path, tag, `--covers`,
 * `--grep`, shard) and every skip lowers coverage the same way.
 */
export function computeCoverage(scenarios: Array<Pick<Scenario, 'id' | 'covers'>>, results: ScenarioResult[], exclude = coverageExclusions()): CoverageReport {
  const outcome = new Map(results.map((r) => [r.id, r.outcome]))
  const known = shippedRules()
  const rules = known.map(({ id, text }) => {
    const covering = scenarios.filter((s) => s.covers.includes(id)).map((s) => ({ id: s.id, outcome: outcome.get(s.id) ?? ('not run' as const) }))
    return { id, text, excluded: exclude.some((p) => id.startsWith(`${p}-`)), state: stateOf(covering.map((c) => c.outcome)), scenarios: covering }
  })
  const gated = rules.filter((r) => !r.excluded)
  const states = Object.fromEntries(RULE_STATES.map((st) => [st, gated.filter((r) => r.state === st).map((r) => r.id)])) as Record<RuleState, string[]>
  const ids = new Set(known.map((r) => r.id))
  const unknown = [...new Set(scenarios.flatMap((s) => s.covers).filter((c) => !ids.has(c)))]
  const percent = gated.length ? Math.round((1000 * states.passing.length) / gated.length) / 10 : 100
  return { rules, uncovered: gated.filter((r) => r.state !== 'passing').map((r) => r.id), states, unknown, percent }
}

function stateOf(outcomes: Array<Outcome | 'not run'>): RuleState {
  if (outcomes.length === 0) return 'not covered'
  if (outcomes.includes('passed')) return 'passing'
  if (outcomes.includes('failed')) return 'failing'
  return 'not run'
}
