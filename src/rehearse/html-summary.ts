import { escapeHtml as h } from '../support/html.js'
import type { Rate, RunResult, SeriesReliability } from './metrics.js'
import { SEVERITIES, wilson } from './metrics.js'
import type { GroupMetrics } from './security-metrics.js'
import type { RehearsalReport } from './report.js'

/** The scorecard's own rules (the shared look is src/support/report-html.ts): summary tiles, the task index, tables that wrap at spaces. */
export const SCORECARD_STYLE = `
.nowrap{white-space:nowrap}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
td,th{overflow-wrap:normal;word-break:normal}td code,td.id,th code{overflow-wrap:anywhere}
.three{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,11rem),1fr));gap:.5rem;margin:.6rem 0}
.tile{border:1px solid var(--line);border-radius:8px;padding:.5rem .7rem;background:var(--bg2)}
.tile .n{display:block;font-size:1.5rem;font-weight:700}.tile .ci{display:block;color:var(--muted);font-size:.85rem}
.sev{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0;margin:.4rem 0}
.sev li{border:1px solid var(--line);border-radius:6px;padding:.2rem .6rem}.sev .n{font-weight:700}
.sev-critical,.sev-high{color:var(--fail)}.sev-medium{color:var(--known)}.sev-low{color:var(--muted)}
ul.index{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;padding:0;margin:.4rem 0}
a.verdict{display:inline-block;border:1px solid currentColor;border-radius:999px;padding:.05rem .55rem;font-size:.85rem;text-decoration:none;overflow-wrap:anywhere}
a.verdict.v-passed{color:var(--pass)}a.verdict.v-failed{color:var(--fail);font-weight:600}
a.verdict:hover{text-decoration:underline}
td.rate .ci{display:block;color:var(--muted);font-size:.8rem}
.findings a{white-space:nowrap}
tr:target{outline:2px solid #1a5fb4}`

/** A share as the scorecard shows it: percent, counts, and the 95 % Wilson interval. */
export function rateText(r: Rate): { value: string; detail: string } {
  if (r.rate === null) return { value: '–', detail: 'no runs' }
  return { value: `${round1(r.rate * 100)} %`, detail: `${r.k} of ${r.n} · 95 % CI ${round1(r.ci95[0] * 100)}–${round1(r.ci95[1] * 100)} %` }
}

const round1 = (x: number) => Math.round(x * 10) / 10

/** The id of one run's section (trials and series kept apart). */
export function runId(t: Pick<RunResult, 'task' | 'trial' | 'series'>): string {
  const series = t.series?.length === 1 ? `-${t.series[0]}` : ''
  return `${t.task}${t.trial ? `-${t.trial}${series}` : ''}`
}

/**
 * The scorecard's opening (issue 34 item 9): the three numbers (benign utility, utility under attack,
 * targeted attack success), pass^k per trial series, findings by severity, the numbers per injection
 * family and site, and an index of every run with a verdict chip, failures first.
 */
export function summaryHtml(report: RehearsalReport, ordered: RunResult[]): string {
  const s = report.summary
  const sec = s.security
  const tile = (label: string, r: Rate) => {
    const t = rateText(r)
    return `<div class="tile"><span class="n">${t.value}</span><span>${label}</span><span class="ci">${h(t.detail)}</span></div>`
  }
  const severity = `<ul class="sev">${SEVERITIES.map((k) => `<li class="sev-${k}"><span class="n">${s.findings_by_severity[k]}</span> ${k}</li>`).join('')}</ul>`
  return `<section aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>
<div class="three">${tile('Benign utility', sec.benign_utility)}${tile('Utility under attack', sec.utility_under_attack)}${tile('Targeted attack success', sec.attack_success)}</div>
<h3>Reliability</h3>${reliabilityHtml(report)}
<h3>Findings by severity</h3>${severity}
${groupTable('Per injection family', 'family', sec.by_family)}${groupTable('Per injection site', 'site', sec.by_site)}
${sec.unpaired.length ? `<p class="ms">Security cases whose benign twin did not run: ${h(sec.unpaired.join(', '))}.</p>` : ''}</section>
<nav aria-labelledby="index-h"><h2 id="index-h">Tasks (${ordered.length})</h2><ul class="index">${ordered.map(chip).join('')}</ul></nav>`
}

function chip(t: RunResult): string {
  const status = t.passed ? 'passed' : 'failed'
  const series = t.series?.length === 1 ? ` ${t.series[0].replace('-', ' ')}` : ''
  return `<li><a class="verdict v-${status}" href="#${h(runId(t))}"><span aria-hidden="true">${t.passed ? '✓' : '✗'}</span><span class="sr">${status}:</span> ${h(t.task)}${t.trial ? ` #${t.trial}${series}` : ''}</a></li>`
}

// pass^k per series with `--trials`; otherwise pass^1, the share of tasks that passed.
function reliabilityHtml(report: RehearsalReport): string {
  const s = report.summary
  const series = s.series ? Object.entries(s.series) as Array<[string, SeriesReliability]> : []
  if (series.length === 0) {
    const tasks = new Set(report.tasks.map((t) => t.task)).size
    const ci = wilson(Math.round(s.pass_k * tasks), tasks)
    return `<p>pass^1 <strong>${s.pass_k}</strong> <span class="ms">(${tasks} tasks, one trial each · 95 % CI ${ci[0]}–${ci[1]}; <code>--trials k</code> adds pass^k on the same seed and on new seeds)</span></p>`
  }
  const rows = series.map(([name, r]) => {
    const mean = rateText(r.mean)
    return `<tr><th scope="row">${name.replace('-', ' ')}</th><td>${r.k}</td><td>${r.tasks}</td><td class="rate">${r.pass_k}<span class="ci">95 % CI ${r.pass_k_ci95[0]}–${r.pass_k_ci95[1]}</span></td><td class="rate">${mean.value}<span class="ci">${h(mean.detail)}</span></td></tr>`
  })
  return `<div class="scroll" role="region" aria-label="reliability per trial series" tabindex="0"><table><thead><tr><th scope="col">series</th><th scope="col">k</th><th scope="col">tasks</th><th scope="col">pass^k</th><th scope="col">mean pass rate</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
}

function groupTable(title: string, what: string, groups: Record<string, GroupMetrics>): string {
  const names = Object.keys(groups)
  if (names.length === 0) return ''
  const cell = (r: Rate) => {
    const t = rateText(r)
    return `<td class="rate">${t.value}<span class="ci">${h(t.detail)}</span></td>`
  }
  const rows = names.map((n) => {
    const g = groups[n]
    return `<tr><th scope="row"><code>${h(n)}</code></th><td>${g.cases}</td>${cell(g.benign_utility)}${cell(g.utility_under_attack)}${cell(g.attack_success)}</tr>`
  })
  return `<h3>${title}</h3><div class="scroll" role="region" aria-label="${h(title.toLowerCase())}" tabindex="0"><table><thead><tr><th scope="col">${what}</th><th scope="col">cases</th><th scope="col">benign utility (twins)</th><th scope="col">utility under attack</th><th scope="col">attack success</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
}
