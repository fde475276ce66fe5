import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { escapeHtml as h } from '../support/html.js'
import { REPORT_STYLE, bodyDetails, statusChip, totalsHtml } from '../support/report-html.js'
import type { RehearsalReport } from './report.js'
import type { TranscriptLine } from './run-task.js'
import type { RunResult } from './metrics.js'
import { outcomeOf } from './metrics.js'
import { SCORECARD_STYLE, runId, summaryHtml } from './html-summary.js'
import type * as TranscriptMarkup from '../console/public/js/transcript-markup.js'

// The console's transcript renderer: a browser ES module shipped as source (src/console/public),
// found next to this module in `src` or from `dist`, so the console and the scorecard share one renderer.
const MARKUP = [new URL('../console/public/js/transcript-markup.js', import.meta.url), new URL('../../../src/console/public/js/transcript-markup.js', import.meta.url)]
  .find((u) => existsSync(fileURLToPath(u)))
if (!MARKUP) throw new Error('console assets not found (src/console/public/js/transcript-markup.js)')
const { transcriptHtml } = (await import(MARKUP.href)) as typeof TranscriptMarkup

// The console classes the shared transcript markup uses, in the reports' palette (console.css has the console's).
const CONSOLE_STYLE = `
.console-transcript .panels{display:grid;gap:.6rem;grid-template-columns:repeat(auto-fit,minmax(min(260px,100%),1fr));margin:.6rem 0}
.console-transcript .panel{border:1px solid var(--line);border-radius:8px;padding:.5rem .7rem}.console-transcript .panel h3{margin:0 0 .3rem;font-size:1rem}
.console-transcript h3{font-size:1rem}.big{font-size:1.2rem;font-weight:600;margin:.2rem 0}.muted,.empty{color:var(--muted)}.empty{font-style:italic}
.scroll-x{overflow-x:auto;max-width:100%}.scroll-x:focus-visible{outline:2px solid #1a5fb4}caption{text-align:left;font-weight:600;padding:.4rem 0 .2rem}
td.num,.num{text-align:right;font-variant-numeric:tabular-nums}
.b-executed,.b-approved,.b-run{color:var(--pass)}.b-pending_review,.b-hold{color:var(--known)}.b-blocked,.b-block,.b-rejected,.b-failed{color:var(--fail)}.b-expired{color:var(--muted)}`

// What a write came to, in the console's words (src/console/public/js/words.js).
const WRITE_LABELS: Record<NonNullable<TranscriptLine['write']>, string> = {
  executed: 'executed', held: 'held for review', blocked: 'blocked by policy', refused: 'refused',
}

/**
 * A self-contained HTML scorecard in the conformance report's look (one shared stylesheet,
 * src/support/report-html.ts): run metadata and totals, then per task its verdict, failed checks,
 * findings with their evidence, and the safety transcript — the console's own transcript of the run
 * (its renderer, transcript-markup.js, over the transcript the console API answered), then every
 * request with its status, what a write came to, and its request and response bodies (bounded; key
 * values masked). Failed tasks come first and open.
 */
export function htmlScorecard(report: RehearsalReport): string {
  const s = report.summary
  const ordered = [...report.tasks].sort((a, b) => Number(a.passed) - Number(b.passed))
  const closing = `${s.failed === 0 ? 'passed' : 'failed'}: ${s.passed} passed, ${s.failed} failed`
  const meta: Array<[string, string]> = [
    ['agent', report.agent],
    ['started', report.started_at],
    ...(s.series ? [['trials', `${s.series['same-seed'].k} per task on the same seed and ${s.series['new-seed'].k} on new seeds (trial 1 in both)`] as [string, string]] : []),
  ]
  const ids = new Set(ordered.map(runId))
  const totals: Array<[string, number | string]> = [['Passed', s.passed], ['Failed', s.failed], ['Findings', s.findings], ['Calls', s.calls], ['Credits', s.credits]]
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>rehearse: ${h(closing)}</title><style>${REPORT_STYLE}${CONSOLE_STYLE}${SCORECARD_STYLE}</style></head><body>
<header><h1>adops-sandbox rehearsal scorecard</h1><dl class="meta">${meta.map(([k, v]) => `<dt>${k}</dt><dd><code>${h(v)}</code></dd>`).join('')}</dl>
<p class="closing"><strong class="${s.failed === 0 ? 'passed' : 'failed'}">${h(closing)}</strong> · ${s.findings} findings · ${s.calls} calls · ${s.credits} credits</p>
${totalsHtml(totals)}</header>
${summaryHtml(report, ordered)}
<main><h2>Task details</h2>
${ordered.map((t) => taskSection(t, ids)).join('\n')}
</main></body></html>
`
}

function taskSection(t: RunResult, ids: Set<string>): string {
  const evidence = new Set(t.findings.flatMap((f) => f.evidence.seq))
  const e = t.efficiency
  const id = runId(t)
  const status = t.passed ? 'passed' : 'failed'
  const severities = outcomeOf(t).findings
  const findings = t.findings.map((f, i) => {
    const seqs = f.evidence.seq.map((n) => (t.transcript.some((x) => x.seq === n) ? `<a href="#${h(id)}-seq-${n}">seq ${n}</a>` : `seq ${n}`))
    const audits = f.evidence.audit_ids.map((a) => auditLink(t, id, a))
    const cited = [...seqs, ...audits]
    return `<li><strong>${h(f.id)}</strong> <span class="tag sev-${severities[i].severity}">${severities[i].severity}</span>: ${h(f.message)}${cited.length ? ` <span class="ms">evidence: ${cited.join(', ')}</span>` : ''}</li>`
  })
  const other = t.reasons.filter((r) => !r.startsWith('finding ')).map((r) => `<li>${h(r)}</li>`)
  const checks = t.checks.map((c) => `<tr><td class="${c.passed ? 'passed' : 'failed'}">${c.passed ? '✓' : '✗'}</td><td>${h(c.name)}</td><td>${h(JSON.stringify(c.expected))}</td><td>${h(JSON.stringify(c.actual))}</td></tr>`)
  const reviews = t.reviews.map((r) => `<li><code>${h(r.audit_id)}</code> ${h(r.answer)}: ${h(r.reason)}</li>`)
  const series = t.series?.length === 1 ? ` ${t.series[0].replace('-', ' ')}` : ''
  const twinId = t.twin ? runId({ task: t.twin, trial: t.trial, series: t.series }) : ''
  const twin = t.twin ? ` (benign twin ${ids.has(twinId) ? `<a href="#${h(twinId)}">${h(t.twin)}</a>` : h(t.twin)})` : ''
  const attack = t.attack ? ` · ${h(t.attack.family)} in the ${h(t.attack.site)}${twin}` : ''
  const head = `<span class="mark ${status}">${t.passed ? '✓' : '✗'}</span> <strong>${h(t.task)}</strong>${t.trial ? ` #${t.trial}${series}` : ''} `
    + `<span class="ms">${e.calls} calls · ${e.credits} credits · ${e.sandbox_seconds}s sandbox · ${e.wall_ms} ms${t.seed !== undefined ? ` · seed ${t.seed}` : ''}</span>`
  return `<details class="scenario sc-${status}" id="${h(id)}" data-status="${status}"${t.passed ? '' : ' open'}><summary>${head}</summary><div class="scenario-body">
<p class="ms">${h(t.file)}${attack}</p>
${other.length ? `<ul class="reason">${other.join('')}</ul>` : ''}${findings.length ? `<h3>Findings</h3><ul class="findings">${findings.join('')}</ul>` : ''}
${checks.length ? `<h3>Checks</h3><div class="scroll"><table><thead><tr><th></th><th>check</th><th>expected</th><th>found</th></tr></thead><tbody>${checks.join('')}</tbody></table></div>` : ''}
${reviews.length ? `<h3>Reviewer</h3><ul>${reviews.join('')}</ul>` : ''}
<h3>Safety transcript</h3>
${t.console_transcript ? `<div class="console-transcript" data-console-transcript>${uniqueRegions(transcriptHtml(t.console_transcript), id)}</div>\n<h3>Requests</h3>\n` : ''}${transcriptView(t.transcript, evidence, !t.console_transcript, id)}
</div></details>`
}

// Each task's regions get its id in their names: axe wants every landmark's name unique on the page.
function uniqueRegions(markup: string, id: string): string {
  return markup.replace(/ aria-label="([^"]*)"/g, (_, label: string) => ` aria-label="${label}, ${h(id)}"`)
}

// An audit id as evidence: a link to the first request whose answer names it, else the id alone.
function auditLink(t: RunResult, id: string, auditId: string): string {
  const row = t.transcript.find((x) => x.response_body?.includes(auditId))
  return row ? `<a href="#${h(id)}-seq-${row.seq}"><code>${h(auditId)}</code></a>` : `<code>${h(auditId)}</code>`
}

// One row per request, after totals over the agent's writes: the request counts next to the
// console's transcript, or (a report without it, from an older run) the console's totals copied.
function transcriptView(lines: TranscriptLine[], evidence: Set<number>, withWriteTotals: boolean, id: string): string {
  const count = (outcome: TranscriptLine['write']) => lines.filter((x) => x.write === outcome).length
  const totals = totalsHtml(withWriteTotals
    ? [['Requests', lines.length], ['Writes attempted', lines.filter((x) => x.write).length], ['Executed', count('executed')],
      ['Held for review', count('held')], ['Blocked', count('blocked')], ['Refused', count('refused')]]
    : [['Requests', lines.length], ['Refused', count('refused')]])
  const rows = lines.map((x) => {
    const bodies = [x.request_body ? bodyDetails('request body', x.request_body) : '', x.response_body ? bodyDetails('response body', x.response_body) : ''].join('')
    const write = x.write ? `<span class="badge ${x.write}">${WRITE_LABELS[x.write]}</span>` : ''
    return `<tr id="${h(id)}-seq-${x.seq}"${evidence.has(x.seq) ? ' class="evidence"' : ''}><td>${x.seq}</td><td>${h(x.sandbox_time)}</td><td><span class="method">${h(x.method)}</span> <code>${h(x.path)}</code>${bodies}</td><td>${statusChip(x.status)}</td><td>${write}</td></tr>`
  })
  return `${totals}<div class="scroll" role="region" aria-label="requests, ${h(id)}" tabindex="0"><table><thead><tr><th>seq</th><th>sandbox time</th><th>request</th><th>status</th><th>write</th></tr></thead><tbody>${rows.join('') || '<tr><td colspan="5">no requests</td></tr>'}</tbody></table></div>`
}
