import type { RunResult } from '../runner.js'
import type { Secrets } from '../secrets.js'
import type { ScenarioResult } from '../types.js'
import { closingLine, diffText, firstFailure, transcript } from './format.js'
import { esc } from './format.js'
import { sdkMatrix } from './sdk-matrix.js'

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
.summary span{display:inline-block;margin-right:1rem;padding:.2rem .6rem;border-radius:4px;background:#f2f2f2}
.passed{color:#137333}.failed{color:#b3261e}.skipped,.expected{color:#8a6d00}.excluded{color:#888}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e5e5e5;padding:.25rem .5rem;text-align:left;vertical-align:top}
td.cell{white-space:nowrap}.dot{display:inline-block;width:.7rem;height:.7rem;border-radius:50%;margin-right:.25rem}
.dot.passed{background:#34a853}.dot.failed{background:#ea4335}.dot.skipped,.dot.expected{background:#fbbc04}.dot.none{background:#ccc}
details{border:1px solid #e5e5e5;border-radius:6px;margin:.4rem 0;padding:.3rem .7rem}summary{cursor:pointer}
pre{background:#fafafa;padding:.6rem;overflow:auto;font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap}
input{padding:.3rem;width:20rem;margin:.5rem 0}`

const SCRIPT = `document.getElementById('q').addEventListener('input',e=>{const q=e.target.value.toLowerCase();
for(const d of document.querySelectorAll('details.scenario'))d.style.display=d.dataset.text.includes(q)?'':'none'})`

/** One self-contained page: summary, rule-coverage matrix, every scenario with its transcript. */
export function htmlReport(run: RunResult, secrets: Secrets): string {
  const s = run.summary
  const body = [
    `<h1>adops-sandbox conformance report</h1>`,
    `<p>${esc(run.target)} · ${new Date().toISOString()} · ${(s.duration_ms / 1000).toFixed(2)} s</p>`,
    `<p class="summary"><span class="passed">${s.passed} passed</span><span class="failed">${s.failed} failed</span><span class="skipped">${s.skipped} skipped</span><span class="expected">${s.expected_failures} expected failures</span><span class="failed">${s.stale} stale baseline</span><span>${s.violations} contract violations</span><span>rule coverage ${run.coverage.percent}%</span></p>`,
    coverageMatrix(run),
    sdkMatrix(run),
    `<h2>Scenarios</h2><input id="q" placeholder="filter by id, rule, tag or text">`,
    ...run.scenarios.map((r) => scenario(r, secrets)),
    `<p><strong>${esc(closingLine(s))}</strong></p>`,
  ]
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>conform: ${esc(closingLine(s))}</title><style>${STYLE}</style></head><body>${body.join('\n')}<script>${SCRIPT}</script></body></html>\n`
}

function coverageMatrix(run: RunResult): string {
  const rows = run.coverage.rules.map((rule) => {
    const cells = rule.scenarios.map((sc) => `<a href="#${esc(sc.id)}"><span class="dot ${dotClass(run, sc.id, sc.outcome)}"></span>${esc(sc.id)}</a>`).join('<br>')
    const state = rule.excluded ? '<span class="excluded">excluded</span>' : rule.scenarios.length ? `${rule.scenarios.length}` : '<span class="failed">uncovered</span>'
    return `<tr><td class="cell"><strong>${esc(rule.id)}</strong></td><td>${esc(rule.text)}</td><td class="cell">${state}</td><td class="cell">${cells}</td></tr>`
  })
  return `<h2>Rule coverage</h2><table><thead><tr><th>rule</th><th>text</th><th>scenarios</th><th>results</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function dotClass(run: RunResult, id: string, outcome: string): string {
  const result = run.scenarios.find((r) => r.id === id)
  if (result?.baseline && !result.baseline.stale) return 'expected'
  return outcome === 'not run' ? 'none' : outcome
}

function scenario(r: ScenarioResult, secrets: Secrets): string {
  const klass = r.baseline ? (r.baseline.stale ? 'failed' : 'expected') : r.outcome
  const label = r.baseline ? (r.baseline.stale ? 'stale baseline' : 'expected failure') : r.outcome
  const failed = firstFailure(r.steps)
  const diff = failed?.diff?.length ? `<pre>${esc(diffText(failed, secrets))}</pre>` : ''
  const text = `${r.id} ${r.title} ${r.covers.join(' ')} ${r.tags.join(' ')} ${label}`.toLowerCase()
  return `<details class="scenario" id="${esc(r.id)}" data-text="${esc(text)}"${r.outcome === 'failed' && !r.baseline ? ' open' : ''}><summary><span class="dot ${klass}"></span><strong>${esc(r.id)}</strong> — ${esc(r.title)} <span class="${klass}">${esc(label)}</span> · ${r.duration_ms} ms · ${esc(r.covers.join(', '))}</summary>`
    + `<p>${esc(r.file)} · tags ${esc(r.tags.join(', '))}${r.reason ? ` · ${esc(secrets.redact(r.reason))}` : ''}${r.baseline ? ` · baseline: ${esc(r.baseline.reason)}` : ''}</p>${diff}<pre>${esc(transcript(r.steps, secrets))}</pre></details>`
}
