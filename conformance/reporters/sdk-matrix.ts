import type { RunResult } from '../runner.js'
import type { ScenarioResult } from '../types.js'
import { esc } from './format.js'

type Cell = { mark: string; klass: string; label: string }

/**
 * The SDK × rule matrix (SDK-01..09) of an SDK-mode run, in the style of the OpenTelemetry
 * compliance matrix: ✓ passed, ✗ failed, xfail (a baseline entry for this SDK), stale, skip.
 * Empty when no SDK scenario ran. Built from the results, never edited by hand.
 */
export function sdkMatrix(run: RunResult): string {
  const rules = run.coverage.rules.filter((r) => r.id.startsWith('SDK-'))
  const byId = new Map(run.scenarios.map((r) => [r.id, r]))
  const ran = rules.some((rule) => rule.scenarios.some((s) => byId.get(s.id) && byId.get(s.id)!.outcome !== 'skipped'))
  if (!ran && !run.sdk) return ''
  const rows = rules.map((rule) => {
    const results = rule.scenarios.map((s) => byId.get(s.id)).filter((r): r is ScenarioResult => r !== undefined)
    const cell = cellOf(results)
    const links = results.map((r) => `<a href="#${esc(r.id)}">${esc(r.id)}</a>`).join('<br>')
    const why = results.filter((r) => r.baseline && !r.baseline.stale).map((r) => esc(r.baseline!.reason)).join('<br>')
    return `<tr><td class="cell"><strong>${esc(rule.id)}</strong></td><td>${esc(rule.text)}</td><td class="cell ${cell.klass}" title="${esc(cell.label)}">${cell.mark}</td><td class="cell">${links}</td><td>${why}</td></tr>`
  })
  return `<h2>SDK × rule matrix</h2><p>✓ passed · ✗ failed · xfail expected failure (baseline) · stale: passed but still in the baseline · skip: the adapter does not support an operation</p>`
    + `<table><thead><tr><th>rule</th><th>text</th><th>${esc(run.sdk ?? 'SDK')}</th><th>scenarios</th><th>known defect</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function cellOf(results: ScenarioResult[]): Cell {
  const ran = results.filter((r) => r.outcome !== 'skipped')
  if (results.length === 0) return { mark: '—', klass: 'excluded', label: 'no scenario' }
  if (ran.length === 0) return { mark: 'skip', klass: 'skipped', label: results[0].reason ?? 'skipped' }
  if (ran.some((r) => r.outcome === 'failed' && !r.baseline)) return { mark: '✗', klass: 'failed', label: 'failed' }
  if (ran.some((r) => r.baseline?.stale)) return { mark: '✗ stale', klass: 'failed', label: 'passed, but listed in the baseline' }
  if (ran.some((r) => r.outcome === 'failed')) return { mark: 'xfail', klass: 'expected', label: 'expected failure (baseline)' }
  return { mark: '✓', klass: 'passed', label: 'passed' }
}
