import type { Secrets } from '../../secrets.js'
import type { StepResult } from '../../types.js'
import { esc } from '../format.js'
import { diffView } from './diff-view.js'
import { exchangeView } from './exchange-view.js'

const MARK: Record<StepResult['outcome'], string> = { passed: '✓', failed: '✗', skipped: '–' }

/**
 * A scenario's steps as a tree (an `include` nests its steps): outcome, label, attempts and time
 * per step, with a bar for its share of the scenario's time; a failed step is open and shows its
 * reason, coloured diff, contract violations and exchange.
 */
export function stepTree(steps: StepResult[], secrets: Secrets, total: number): string {
  if (steps.length === 0) return ''
  return `<ol class="steps">${steps.map((s) => `<li>${stepView(s, secrets, total)}</li>`).join('')}</ol>`
}

function stepView(step: StepResult, secrets: Secrets, total: number): string {
  const r = (text: string) => esc(secrets.redact(text))
  const share = total > 0 ? Math.min(100, Math.round((100 * step.duration_ms) / total)) : 0
  const attempts = step.attempts > 1 ? ` <span class="attempts">${step.attempts} attempts</span>` : ''
  const head = `<span class="mark ${step.outcome}" aria-label="${step.outcome}">${MARK[step.outcome]}</span> <span class="label">${r(step.label)}</span>${attempts}`
    + ` <span class="ms">${step.duration_ms} ms</span><span class="bar" aria-hidden="true"><span style="width:${share}%"></span></span>`
  const reason = step.reason && step.outcome !== 'passed' ? `<p class="reason ${step.outcome}">${r(step.reason)}</p>` : ''
  const violations = step.violations.length
    ? `<ul class="violations">${step.violations.map((v) => `<li class="${v.severity === 'error' ? 'failed' : 'warn'}">contract ${v.severity}: <code>${r(v.location)}</code> ${r(v.message)}</li>`).join('')}</ul>`
    : ''
  const notes = step.notes.length ? `<ul class="notes">${step.notes.map((n) => `<li>${r(n)}</li>`).join('')}</ul>` : ''
  const body = reason + diffView(step, secrets) + violations + notes
    + (step.exchange ? exchangeView(step.exchange, secrets) : '') + stepTree(step.children ?? [], secrets, total)
  if (!body) return `<div class="step leaf">${head}</div>`
  return `<details class="step"${step.outcome === 'failed' ? ' open' : ''}><summary>${head}</summary><div class="step-body">${body}</div></details>`
}
