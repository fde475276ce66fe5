import { REPORT_STYLE } from '../../../src/support/report-html.js'

/** The report's only stylesheet (shared with the rehearsal scorecard: src/support/report-html.ts). */
export const STYLE = REPORT_STYLE

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
