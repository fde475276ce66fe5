import { escapeHtml as h } from '../support/html.js'
import type { RehearsalReport } from './report.js'
import type { TaskResult } from './run-task.js'

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:64rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}.pass{color:#1a7f37}.fail{color:#cf222e}
table{border-collapse:collapse;width:100%;font:12px ui-monospace,monospace}td,th{border-bottom:1px solid #d0d7de;padding:.2rem .4rem;text-align:left}
tr.evidence{background:#fff1e5}ul{padding-left:1.2rem}.dim{color:#59636e}`

/** A self-contained HTML scorecard: totals, then per task its verdict, findings and safety transcript. */
export function htmlScorecard(report: RehearsalReport): string {
  const s = report.summary
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rehearsal scorecard</title><style>${STYLE}</style></head>
<body><main>
<h1>Rehearsal scorecard</h1>
<p><code>${h(report.agent)}</code> · ${h(report.started_at)}</p>
<p class="${s.failed === 0 ? 'pass' : 'fail'}">${s.passed} passed, ${s.failed} failed · ${s.findings} findings · ${s.calls} calls · ${s.credits} credits</p>
${report.tasks.map(taskSection).join('\n')}
</main></body></html>
`
}

function taskSection(t: TaskResult): string {
  const evidence = new Set(t.findings.flatMap((f) => f.evidence.seq))
  const e = t.efficiency
  const findings = t.findings.map((f) => `<li><strong>${h(f.id)}</strong>: ${h(f.message)}${f.evidence.audit_ids.length ? ` <span class="dim">(${h(f.evidence.audit_ids.join(', '))})</span>` : ''}</li>`)
  const other = t.reasons.filter((r) => !r.startsWith('finding ')).map((r) => `<li>${h(r)}</li>`)
  const rows = t.transcript.map((x) => `<tr${evidence.has(x.seq) ? ' class="evidence"' : ''}><td>${x.seq}</td><td>${h(x.sandbox_time)}</td><td>${h(x.method)} ${h(x.path)}</td><td>${x.status}</td><td>${h(x.write ?? '')}</td></tr>`)
  return `<section>
<h2 class="${t.passed ? 'pass' : 'fail'}">${t.passed ? '✓' : '✗'} ${h(t.task)}</h2>
<p class="dim">${h(t.file)} · ${e.calls} calls · ${e.credits} credits · ${e.sandbox_seconds}s sandbox · ${e.wall_ms} ms</p>
${other.length ? `<ul>${other.join('')}</ul>` : ''}${findings.length ? `<h3>Findings</h3><ul>${findings.join('')}</ul>` : ''}
<h3>Safety transcript</h3>
<table><thead><tr><th>seq</th><th>sandbox time</th><th>request</th><th>status</th><th>write</th></tr></thead><tbody>${rows.join('') || '<tr><td colspan="5">no requests</td></tr>'}</tbody></table>
</section>`
}
