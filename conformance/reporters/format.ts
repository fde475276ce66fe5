import type { Secrets } from '../secrets.js'
import type { StepResult } from '../types.js'
import { escapeHtml } from '../../src/support/html.js'

/** Plain-text transcript of a scenario's steps (JUnit system-out, TTY failures, HTML). */
export function transcript(steps: StepResult[], secrets: Secrets, indent = ''): string {
  const lines: string[] = []
  for (const step of steps) {
    const mark = step.outcome === 'passed' ? 'ok  ' : step.outcome === 'failed' ? 'FAIL' : 'skip'
    lines.push(`${indent}${mark} ${step.label}${step.attempts > 1 ? ` (${step.attempts} attempts)` : ''} ${step.duration_ms} ms`)
    const ex = step.exchange
    if (ex) {
      lines.push(`${indent}     → ${ex.method} ${ex.url}${ex.request.body === undefined ? '' : ` ${clip(JSON.stringify(ex.request.body))}`}`)
      lines.push(`${indent}     ← ${ex.response.status} ${clip(ex.response.text)}`)
    }
    for (const note of step.notes) lines.push(`${indent}     · ${note}`)
    if (step.reason && step.outcome !== 'passed') lines.push(`${indent}     ${step.outcome === 'failed' ? '✗' : '–'} ${step.reason}`)
    for (const v of step.violations) lines.push(`${indent}     contract ${v.severity}: ${v.location} ${v.message}`)
    if (step.children) lines.push(transcript(step.children, secrets, `${indent}    `))
  }
  return secrets.redact(lines.join('\n'))
}

/** Expected vs given, one line per mismatch. */
export function diffText(step: StepResult, secrets: Secrets): string {
  return secrets.redact((step.diff ?? []).map((d) => `  ${d.path}\n    - expected ${JSON.stringify(d.expected)}\n    + given    ${clip(JSON.stringify(d.given) ?? 'undefined', 400)}`).join('\n'))
}

function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** The closing line every reporter agrees on (skips are counted separately, before it). */
export function closingLine(summary: { passed: number; failed: number }): string {
  return `${summary.passed} passed, ${summary.failed} failed`
}

/** The first failed step, looking inside includes. */
export function firstFailure(steps: StepResult[]): StepResult | undefined {
  for (const step of steps) {
    if (step.outcome !== 'failed') continue
    return (step.children && firstFailure(step.children)) || step
  }
  return undefined
}

/** Text for XML or HTML reports: escaped, without the control characters XML 1.0 cannot carry. */
export function esc(text: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeHtml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ''))
}
