import type { RunResult } from '../runner.js'
import type { Secrets } from '../secrets.js'
import { closingLine, esc } from './format.js'
import { sdkMatrix } from './sdk-matrix.js'
import { SCRIPT, STYLE } from './html/assets.js'
import { coverageView } from './html/coverage-view.js'
import { STATUSES, byAttention, scenarioView, statusOf } from './html/scenario-view.js'

/**
 * One self-contained, offline page (inline CSS and JS, no external URL): run metadata, status
 * chips and text search, every scenario failures first with its step tree, then the SDK × rule
 * matrix (SDK mode) and the collapsed rule-coverage matrix. Every text goes through `secrets`.
 */
export function htmlReport(run: RunResult, secrets: Secrets): string {
  const s = run.summary
  const ordered = byAttention(run.scenarios)
  const count = (status: string) => run.scenarios.filter((r) => statusOf(r) === status).length
  const chips = STATUSES.map((status) =>
    `<button type="button" class="chip ${status}" data-status="${status}" aria-pressed="true">${status} <strong>${count(status)}</strong></button>`).join('')
  const body = [
    `<header><h1>adops-sandbox conformance report</h1>${metadata(run)}`,
    `<p class="closing"><strong>${esc(closingLine(s))}</strong> · ${s.skipped} skipped · ${s.expected_failures} known · ${s.stale} stale baseline · ${s.violations} contract violations</p></header>`,
    `<main><h2>Scenarios</h2>`,
    `<div class="counts" role="group" aria-label="show scenarios by status">${chips}</div>`,
    `<div class="search"><label for="q">Search</label><input id="q" type="search" placeholder="id, rule id, tag, file or text"><span id="shown" class="ms" aria-live="polite"></span></div>`,
    ...ordered.map((r) => scenarioView(r, secrets)),
    staleList(run),
    scrollable(sdkMatrix(run), 'SDK × rule matrix'),
    coverageView(run),
    `</main>`,
  ]
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>conform: ${esc(closingLine(s))}</title><style>${STYLE}</style></head><body>${body.join('\n')}<script>${SCRIPT}</script></body></html>\n`
}

function metadata(run: RunResult): string {
  const m = run.meta
  const rows: Array<[string, string | undefined]> = [
    ['target', run.target],
    ['SDK', run.sdk],
    ['kit version', m?.version],
    ['started', m?.started_at],
    ['duration', `${(run.summary.duration_ms / 1000).toFixed(2)} s`],
    ['shard', m?.shard],
    ['seed (run id)', m?.seed],
    ['jobs', m ? String(m.jobs) : undefined],
    ['tags', m?.tags?.join(', ')],
  ]
  return `<dl class="meta">${rows.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `<dt>${k}</dt><dd>${esc(v!)}</dd>`).join('')}</dl>`
}

/** Baseline entries whose scenario passed: they must be removed from the baseline. */
function staleList(run: RunResult): string {
  const stale = run.scenarios.filter((r) => r.baseline?.stale)
  if (stale.length === 0) return ''
  return `<h2>Stale baseline entries</h2><ul class="stale-list">${stale.map((r) => `<li><a href="#${esc(r.id)}">${esc(r.id)}</a> passed but is listed as a known failure (${esc(r.baseline!.reason)})</li>`).join('')}</ul>`
}

/** A wide table scrolls inside its own region, so the page stays usable at 390 px. */
function scrollable(html: string, label: string): string {
  return html ? `<div class="scroll" role="region" aria-label="${esc(label)}" tabindex="0">${html}</div>` : ''
}
