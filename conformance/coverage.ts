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
 * A rule id's state in one run (docs/conformance.md "Coverage semantics", issue 37):
 * - `passing`: at least one covering scenario ran, and every one that ran passed;
 * - `failing`: any covering scenario failed (a known failure from the baseline included: partly is not a pass);
 * - `not run`: scenarios cover it but none ran, deselected by a filter (path, `--tags`, `--covers`,
 *   `--grep`, shard) or skipped for another reason: counts against the gate;
 * - `not applicable`: every covering scenario needs a capability the target lacks (e.g. `sdk`
 *   without `--sdk`): named in the output, left out of the gate and the percentage;
 * - `not covered`: no loaded scenario names it.
 */
export type RuleState = 'passing' | 'failing' | 'not run' | 'not applicable' | 'not covered'
export const RULE_STATES: readonly RuleState[] = ['passing', 'failing', 'not run', 'not applicable', 'not covered']

/** A covering scenario's part in a rule's state: its outcome, or `not applicable` when it was skipped for a missing capability. */
export type CoveringOutcome = Outcome | 'not run' | 'not applicable'

export interface RuleCoverage {
  id: string
  text: string
  excluded: boolean
  state: RuleState
  scenarios: Array<{ id: string; outcome: CoveringOutcome }>
}

export interface CoverageReport {
  rules: RuleCoverage[]
  /** Gated rule ids that keep the `--coverage` gate closed: failing, not run or not covered (not applicable ones do not). */
  uncovered: string[]
  /** Gated rule ids per state. */
  states: Record<RuleState, string[]>
  /** Ids named by scenarios that RULES.md does not know. */
  unknown: string[]
  /** Share of gated, applicable rule ids that are `passing`. */
  percent: number
  /** True when the run enforced the gate (`--coverage`). */
  gated?: boolean
  /** Set on a shard's run: its coverage is a part, the gate runs at `conform merge --coverage`. */
  deferred?: boolean
}

/**
 * Each rule's state in this run. `scenarios` are the loaded ones (selected or not), `results` what
 * ran, `capabilities` the target's (when known); a rule counts as covered only by a passing result, so every selection (path, tag, `--covers`,
 * `--grep`, shard) and every skip lowers coverage the same way.
 */
export function computeCoverage(scenarios: Array<Pick<Scenario, 'id' | 'covers'> & { requires?: string[]; notApplicable?: boolean }>, results: ScenarioResult[], exclude = coverageExclusions(), capabilities?: ReadonlySet<string>): CoverageReport {
  const outcome = new Map(results.map((r) => [r.id, lacksCapability(r) ? ('not applicable' as const) : r.outcome]))
  // A scenario left out by a filter that could not have run here anyway (an `sdk` one without --sdk) is not applicable, not "not run".
  const unrunnable = (s: { requires?: string[]; notApplicable?: boolean }) =>
    s.notApplicable === true || (capabilities !== undefined && (s.requires ?? []).some((c) => !capabilities.has(c)))
  const known = shippedRules()
  const rules = known.map(({ id, text }) => {
    const covering = scenarios.filter((s) => s.covers.includes(id))
      .map((s) => ({ id: s.id, outcome: outcome.get(s.id) ?? (unrunnable(s) ? ('not applicable' as const) : ('not run' as const)) }))
    return { id, text, excluded: exclude.some((p) => id.startsWith(`${p}-`)), state: stateOf(covering.map((c) => c.outcome)), scenarios: covering }
  })
  const gated = rules.filter((r) => !r.excluded)
  const states = Object.fromEntries(RULE_STATES.map((st) => [st, gated.filter((r) => r.state === st).map((r) => r.id)])) as Record<RuleState, string[]>
  const ids = new Set(known.map((r) => r.id))
  const unknown = [...new Set(scenarios.flatMap((s) => s.covers).filter((c) => !ids.has(c)))]
  const applicable = gated.filter((r) => r.state !== 'not applicable')
  const percent = applicable.length ? Math.round((1000 * states.passing.length) / applicable.length) / 10 : 100
  return { rules, uncovered: applicable.filter((r) => r.state !== 'passing').map((r) => r.id), states, unknown, percent }
}

function stateOf(outcomes: CoveringOutcome[]): RuleState {
  if (outcomes.length === 0) return 'not covered'
  if (outcomes.includes('failed')) return 'failing'
  if (outcomes.includes('passed')) return 'passing'
  if (outcomes.every((o) => o === 'not applicable')) return 'not applicable'
  return 'not run'
}

/** Skipped because the target lacks a capability (the scenario's `requires`, or a step's), not for a missing credential. */
export function lacksCapability(result: Pick<ScenarioResult, 'outcome' | 'reason'>): boolean {
  return result.outcome === 'skipped' && /(^|: )target lacks capability /.test(result.reason ?? '')
}
