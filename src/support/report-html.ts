/**
 * The look the sandbox's HTML reports share: the conformance report and the rehearsal scorecard
 * render with this one stylesheet and these pure helpers (no DOM, no I/O), so both read alike.
 */
import { escapeHtml } from './html.js'

/** Text for HTML reports: escaped, without the control characters XML 1.0 cannot carry. */
function esc(text: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeHtml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ''))
}

/** The reports' only stylesheet, inlined (no external URL, readable at 390 px, AA contrast). */
export const REPORT_STYLE = `
:root{--fg:#1d1d1f;--muted:#555;--line:#d9d9de;--bg2:#f5f5f7;--pass:#137333;--fail:#b3261e;--known:#7b4a00;--skip:#555}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem;color:var(--fg);background:#fff;overflow-wrap:break-word}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
code,pre{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
pre{background:var(--bg2);padding:.5rem;margin:.3rem 0;overflow:auto;white-space:pre-wrap;max-height:32rem}
pre:focus,summary:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid #1a5fb4;outline-offset:1px}
a{color:#1a5fb4}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.5rem 0}dl.meta dt{color:var(--muted)}dl.meta dd{margin:0}
.counts{display:flex;flex-wrap:wrap;gap:.4rem;margin:.6rem 0}
.chip{border:1px solid var(--line);border-radius:999px;background:#fff;padding:.3rem .8rem;font:inherit;cursor:pointer;color:var(--fg)}
.chip[aria-pressed=true]{background:var(--fg);color:#fff;border-color:var(--fg)}
.search{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.4rem 0 .8rem}
.search input{flex:1 1 14rem;min-width:0;padding:.4rem;font:inherit;border:1px solid #767676;border-radius:4px}
.passed{color:var(--pass)}.failed{color:var(--fail)}.known{color:var(--known)}.skipped,.warn,.excluded{color:var(--skip)}.expected{color:var(--known)}
.mark{display:inline-block;min-width:1.1rem;text-align:center;font-weight:700}
.tag{font-size:.8rem;border:1px solid currentColor;border-radius:4px;padding:0 .3rem;white-space:nowrap}
.ms,.attempts,.meta{color:var(--muted);font-size:.85rem}
details{margin:.3rem 0}summary{cursor:pointer;padding:.2rem 0}
details.scenario{border:1px solid var(--line);border-left-width:4px;border-radius:6px;padding:.2rem .6rem}
details.sc-failed{border-left-color:var(--fail)}details.sc-known{border-left-color:#b7791f;background:#fffaf0}
details.sc-passed{border-left-color:#34a853}details.sc-skipped{border-left-color:#9aa0a6}
.scenario-body,.step-body{padding-left:.6rem;border-left:1px dashed var(--line);margin-left:.4rem}
ol.steps{list-style:none;padding-left:0;margin:.3rem 0}ol.steps ol.steps{padding-left:.8rem}
.step.leaf{padding:.15rem 0 .15rem 1rem}
.bar{display:inline-block;width:4rem;height:.45rem;background:var(--bg2);margin-left:.4rem;vertical-align:middle;border-radius:2px}
.bar span{display:block;height:100%;background:#8ab4f8;border-radius:2px}
.reason{margin:.3rem 0;font-weight:600}.baseline{margin:.3rem 0}
.exchange{border:1px solid var(--line);border-radius:4px;padding:.3rem .5rem;margin:.3rem 0}
.method{font-weight:700}.status{font-weight:700;padding:0 .3rem;border-radius:3px}.s2{background:#dafbe1;color:#0f5323}.s4,.s5{background:#ffebe9;color:#82071e}.s3{background:#eef;color:#223}
.diff{margin:.3rem 0}.diff .add{background:#dafbe1;color:#0f5323}.diff .del{background:#ffebe9;color:#82071e}.diff pre span{display:inline}
.legend{font-size:.8rem}.legend span{padding:0 .3rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top;overflow-wrap:normal;word-break:normal;hyphens:none}
td code,td a,td .url,td.url,pre,code{overflow-wrap:anywhere}
td.id{white-space:nowrap}td.state,td.num,th.num{white-space:nowrap}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto;max-width:100%;background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/2rem 100% no-repeat local,linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/2rem 100% no-repeat local,radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.18),transparent) left/.7rem 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.18),transparent) right/.7rem 100% no-repeat scroll}td.links a{display:inline-block;margin-right:.5rem;white-space:nowrap}
.stale-list li{margin:.2rem 0}
[hidden]{display:none!important}
@media (max-width:600px){body{padding:.5rem}.bar{display:none}td.text{min-width:14rem}td.links{min-width:10rem}}
.totals{display:grid;grid-template-columns:repeat(auto-fill,minmax(110px,1fr));gap:.5rem;margin:.6rem 0}
.total{border:1px solid var(--line);border-radius:8px;padding:.5rem;text-align:center;background:var(--bg2)}.total .n{display:block;font-size:1.4rem;font-weight:700}
.badge{display:inline-block;padding:0 .45em;border-radius:4px;font-size:.8rem;font-weight:600;border:1px solid currentColor}
.badge.executed{color:var(--pass)}.badge.held{color:var(--known)}.badge.blocked,.badge.refused{color:var(--fail)}
tr.evidence{background:#fff1e5}tr.evidence td:first-child{border-left:3px solid #b7791f}`

/** Bodies longer than this many lines start collapsed; nothing is cut here (callers bound them). */
const OPEN_LINES = 12

/** A request or response body as a collapsible block: label, line and character counts, the text. */
export function bodyDetails(label: string, text: string): string {
  const lines = text.split('\n').length
  const open = lines <= OPEN_LINES ? ' open' : ''
  return `<details class="body"${open}><summary>${label} (${lines} line${lines === 1 ? '' : 's'}, ${text.length} chars)</summary><pre tabindex="0">${esc(text)}</pre></details>`
}

/** An HTTP status as the reports show it: coloured by class (2xx green, 4xx/5xx red). */
export function statusChip(status: number): string {
  return `<span class="status s${Math.floor(status / 100)}">${status}</span>`
}

/** A row of big-number tiles (the console transcript's totals). */
export function totalsHtml(items: Array<[label: string, value: number | string]>): string {
  return `<div class="totals">${items.map(([label, n]) => `<div class="total"><span class="n">${esc(String(n))}</span><span>${esc(label)}</span></div>`).join('')}</div>`
}
