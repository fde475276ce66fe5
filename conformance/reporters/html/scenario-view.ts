import type { Secrets } from '../../secrets.js'
import type { ScenarioResult } from '../../types.js'
import { esc } from '../format.js'
import { stepTree } from './step-tree.js'

/** The four filter chips: a stale baseline entry (passed, still listed) counts as failed. */
export type Status = 'failed' | 'known' | 'passed' | 'skipped'
export const STATUSES: Status[] = ['failed', 'known', 'passed', 'skipped']

export function statusOf(r: ScenarioResult): Status {
  if (r.baseline?.stale) return 'failed'
  if (r.outcome === 'failed') return r.baseline ? 'known' : 'failed'
  return r.outcome
}

const MARK: Record<Status, string> = { failed: '✗', known: '◐', passed: '✓', skipped: '–' }

/** Failures first, then known failures, skipped and passed; by id within each. */
export function byAttention(results: ScenarioResult[]): ScenarioResult[] {
  const rank = (r: ScenarioResult) => ['failed', 'known', 'skipped', 'passed'].indexOf(statusOf(r))
  return [...results].sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))
}

/**
 * One scenario: a real failure is open; a known (baseline) failure is collapsed under a distinct
 * mark with the baseline's reason; a stale entry says so.
 */
export function scenarioView(r: ScenarioResult, secrets: Secrets): string {
  const status = statusOf(r)
  const red = (text: string) => esc(secrets.redact(text))
  const label = r.baseline?.stale ? 'stale baseline entry' : status === 'known' ? 'known failure' : status
  const search = `${r.id} ${r.title} ${r.file} ${r.covers.join(' ')} ${r.tags.join(' ')} ${label} ${r.reason ?? ''} ${r.baseline?.reason ?? ''}`
  const note = r.baseline
    ? `<p class="baseline ${r.baseline.stale ? 'failed' : 'known'}">${r.baseline.stale
      ? 'Passed, but still listed in the baseline as a known failure: remove the entry.'
      : 'Known failure (baseline)'} Reason: ${red(r.baseline.reason)}</p>`
    : ''
  const reason = r.reason && status !== 'known' ? `<p class="reason ${status}">${red(r.reason)}</p>` : ''
  const meta = `<p class="meta"><code>${esc(r.file)}</code>${r.covers.length ? ` · covers ${r.covers.map((c) => `<a href="#rule-${esc(c)}">${esc(c)}</a>`).join(' ')}` : ''}${r.tags.length ? ` · tags ${esc(r.tags.join(', '))}` : ''}</p>`
  return `<details class="scenario sc-${status}" id="${esc(r.id)}" data-status="${status}" data-text="${esc(secrets.redact(search).toLowerCase())}"${status === 'failed' ? ' open' : ''}>`
    + `<summary><span class="mark ${status}" aria-label="${label}">${MARK[status]}</span> <strong>${esc(r.id)}</strong> <span class="title">${esc(r.title)}</span>`
    + ` <span class="tag ${status}">${esc(label)}</span> <span class="ms">${r.duration_ms} ms</span></summary>`
    + `<div class="scenario-body">${note}${reason}${meta}${stepTree(r.steps, secrets, r.duration_ms)}</div></details>`
}
