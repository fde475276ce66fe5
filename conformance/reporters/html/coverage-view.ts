import type { RunResult } from '../../runner.js'
import type { RuleCoverage } from '../../coverage.js'
import { esc } from '../format.js'
import { inlineMarkdown } from './markdown.js'
import { statusOf } from './scenario-view.js'

type RuleState = RuleCoverage['state'] | 'excluded'
const STATE_CLASS: Record<RuleState, string> = { passing: 'passed', failing: 'failed', 'not run': 'skipped', 'not applicable': 'skipped', 'not covered': 'failed', excluded: 'skipped' }
const MARK = { failed: '✗', known: '◐', passed: '✓', skipped: '–', 'not run': '○' } as const

/**
 * The rule-coverage matrix, after the scenarios and collapsed: each rule id with its rendered text,
 * its state in this run, and the scenarios covering it with their marks.
 */
export function coverageView(run: RunResult): string {
  const byId = new Map(run.scenarios.map((r) => [r.id, r]))
  const rows = run.coverage.rules.map((rule) => {
    const state = stateOf(rule)
    const links = rule.scenarios.map((sc) => {
      const result = byId.get(sc.id)
      const status = result ? statusOf(result) : 'not run'
      return `<a href="#${esc(sc.id)}"><span class="mark ${status === 'not run' ? 'skipped' : status}" aria-label="${status}">${MARK[status]}</span>${esc(sc.id)}</a>`
    }).join(' ')
    return `<tr id="rule-${esc(rule.id)}"><td class="id"><strong>${esc(rule.id)}</strong></td><td class="text">${inlineMarkdown(rule.text)}</td>`
      + `<td class="state ${STATE_CLASS[state]}">${state}</td><td class="links">${links}</td></tr>`
  })
  const counts = new Map<RuleState, number>()
  for (const rule of run.coverage.rules) counts.set(stateOf(rule), (counts.get(stateOf(rule)) ?? 0) + 1)
  const tally = [...counts].map(([state, n]) => `${n} ${state}`).join(' · ')
  return `<h2 id="coverage">Rule coverage: ${run.coverage.percent}%</h2><details class="coverage"><summary>${run.coverage.rules.length} rules: ${esc(tally)}</summary>`
    + `<div class="scroll" role="region" aria-label="rule coverage table" tabindex="0"><table><thead><tr><th scope="col">rule</th><th scope="col">text</th><th scope="col">state</th><th scope="col">scenarios</th></tr></thead>`
    + `<tbody>${rows.join('')}</tbody></table></div></details>`
}

/** The run's own rule state (coverage.ts: passing, failing, not run, not applicable, not covered), or `excluded`. */
function stateOf(rule: RuleCoverage): RuleState {
  return rule.excluded ? 'excluded' : rule.state
}
