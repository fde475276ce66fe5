/** The report's only stylesheet, inlined (no external URL, readable at 390 px, AA contrast). */
export const STYLE = `
:root{--fg:#1d1d1f;--muted:#555;--line:#d9d9de;--bg2:#f5f5f7;--pass:#137333;--fail:#b3261e;--known:#7b4a00;--skip:#555}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem;color:var(--fg);background:#fff;overflow-wrap:anywhere}
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
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top}
td.id{white-space:nowrap}td.links a{display:inline-block;margin-right:.5rem;white-space:nowrap}
.stale-list li{margin:.2rem 0}
[hidden]{display:none!important}
@media (max-width:600px){body{padding:.5rem}.bar{display:none}td.text{min-width:12rem}}`

/** Filter chips and text search; a link to a scenario opens it. */
export const SCRIPT = `(()=>{const chips=[...document.querySelectorAll('.chip')],q=document.getElementById('q'),
items=[...document.querySelectorAll('details.scenario')],shown=document.getElementById('shown');
function apply(){const on=new Set(chips.filter(c=>c.getAttribute('aria-pressed')==='true').map(c=>c.dataset.status));
const text=q.value.trim().toLowerCase();let n=0;for(const d of items){const v=on.has(d.dataset.status)&&(!text||d.dataset.text.includes(text));
d.hidden=!v;if(v)n++}shown.textContent=n+' of '+items.length+' scenarios shown'}
for(const c of chips)c.addEventListener('click',()=>{c.setAttribute('aria-pressed',c.getAttribute('aria-pressed')==='true'?'false':'true');apply()});
q.addEventListener('input',apply);
function reveal(){const id=decodeURIComponent(location.hash.slice(1));const el=id&&document.getElementById(id);
if(el&&el.matches('details')){el.hidden=false;el.open=true;el.scrollIntoView()}}
window.addEventListener('hashchange',reveal);apply();reveal()})()`
