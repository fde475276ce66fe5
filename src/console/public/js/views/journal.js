// Request journal: recent exchanges of both hosts, credentials redacted, faults marked.
import { query } from '../api.js'
import { badge, empty, field, h, json, mount, scrollRegion, select, time } from '../dom.js'
import { liveFilter } from '../live-filter.js'

const LIMIT = 200
// Columns a phone hides (still in the Details of each row).
const OPTIONAL = new Set(['#', 'Host', 'ms'])
const kb = (bytes) => `${Math.round(bytes / 1024)} KB`

export function render(main, app) {
  const form = h('form', { class: 'filters', 'aria-label': 'Filter the journal' },
    field('Script', h('input', { name: 'script', type: 'search', placeholder: 'enable_campaign', spellcheck: 'false' })),
    field('Status (404 or 4xx)', h('input', { name: 'status', size: 5, placeholder: '4xx', spellcheck: 'false' })),
    field('Key prefix', h('input', { name: 'key_prefix', placeholder: 'svc_test_age', spellcheck: 'false' })),
    field('Host', select('host', [['', 'both'], ['base', 'base'], ['api', 'api']])),
    field('Method', select('method', [['', 'any'], ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, m])])),
    field('Path contains', h('input', { name: 'path', type: 'search', placeholder: '/api/v1/tools/run' })),
    field('Request id', h('input', { name: 'request_id', type: 'search', placeholder: 'req_…', spellcheck: 'false' })))
  const table = h('table', { class: 'journal' },
    h('caption', { class: 'sr-only' }, 'Recorded exchanges, newest first'),
    h('thead', {}, h('tr', {}, ['#', 'Sandbox time', 'Host', 'Request', 'Status', 'ms', 'Key', 'Audit', 'Details'].map((t) => h('th', { scope: 'col', class: OPTIONAL.has(t) ? 'opt' : null }, t)))))
  const body = h('tbody')
  table.append(body)
  const note = h('p', { class: 'muted' })
  // Collapsible filters (issue 37): open on a wide screen, closed on a phone so the first row shows
  // without scrolling past seven fields; the summary counts the filters in use.
  const filterCount = h('span', { class: 'muted' })
  const filterBox = h('details', { class: 'filter-box', open: !matchMedia('(max-width: 640px)').matches },
    h('summary', {}, 'Filters ', filterCount), form)
  form.addEventListener('input', () => {
    const used = [...new FormData(form).values()].filter((v) => String(v).trim() !== '').length
    filterCount.textContent = used ? `(${used} in use)` : ''
  })
  mount(main, h('h2', {}, 'Request journal'), h('p', { class: 'lede' }, 'What clients actually sent and received (the control plane is not recorded). Key values appear as 12-character prefixes; dispatcher calls show their script and link to the audit entry they produced.'),
    filterBox, note, scrollRegion('Recorded exchanges (scrolls sideways on narrow screens)', table))
  let since = 0
  let shown = 0

  function show(res) {
    // Two overlapping loads (poll and filter change) may answer the same exchanges: add each once.
    const fresh = res.entries.filter((e) => e.seq > shown)
    since = Math.max(since, res.last_seq)
    if (fresh.length) shown = fresh[fresh.length - 1].seq
    // New exchanges go on top; open rows stay as they are.
    for (const entry of fresh) body.prepend(...rows(entry))
    while (body.children.length > LIMIT * 2) body.lastElementChild.remove()
    if (res.entries.length) body.querySelector('.empty-row')?.remove()
    note.textContent = res.last_seq ? `Showing up to ${LIMIT} of the latest exchanges; updates live.` : ''
    if (!body.children.length) body.append(h('tr', { class: 'empty-row' }, h('td', { colspan: 9 }, empty('No exchanges recorded yet.'))))
  }

  function rows(e) {
    const detail = h('tr', { class: 'detail', hidden: true }, h('td', { colspan: 9 },
      h('div', { class: 'exchange' }, h('p', { class: 'muted' }, `Exchange ${e.seq} on the ${e.host} host, ${e.duration_ms} ms.`),
        h('section', {}, h('h3', {}, 'Request'), cut(e.request), json({ query: e.query, headers: e.request.headers, body: e.request.body }, `Request ${e.seq} as JSON`)),
        h('section', {}, h('h3', {}, 'Response'), cut(e.response), json({ headers: e.response.headers, body: e.response.body }, `Response ${e.seq} as JSON`)))))
    const toggle = h('button', { type: 'button', class: 'link', 'aria-expanded': 'false', 'aria-label': `Details of exchange ${e.seq}` }, 'Details')
    toggle.addEventListener('click', () => {
      detail.hidden = !detail.hidden
      toggle.setAttribute('aria-expanded', String(!detail.hidden))
    })
    const statusKind = e.status >= 500 ? 's5' : e.status >= 400 ? 's4' : e.status === 202 ? 'pending_review' : 's2'
    const row = h('tr', { class: e.fault ? 'fault' : '', dataset: { seq: e.seq } },
      h('td', { class: 'opt' }, e.seq), h('td', {}, time(e.sandbox_time)), h('td', { class: 'opt' }, e.host),
      h('td', { class: 'path' }, e.script ? [h('strong', { class: 'script' }, e.script), e.platform ? h('span', { class: 'muted' }, ` on ${e.platform}`) : null, h('br')] : null,
        `${e.method} `, h('span', { class: 'mono' }, e.path), e.fault ? [' ', badge(`fault: ${e.fault}`, 'fault')] : null,
        [['request', e.request.truncated], ['response', e.response.truncated]].map(([side, t]) => (t ? [' ', badge(`${side} body cut: ${kb(t.kept_bytes)} of ${kb(t.bytes)} kept`, 'expired')] : null))),
      h('td', {}, badge(String(e.status), statusKind)), h('td', { class: 'num opt' }, e.duration_ms),
      h('td', {}, e.key_prefix ? h('code', {}, `${e.key_prefix}…`) : '—'),
      h('td', {}, e.audit_id ? h('a', { href: `#audit/${encodeURIComponent(e.audit_id)}`, 'aria-label': `Audit entry ${e.audit_id}` }, e.audit_id) : '—'),
      h('td', {}, toggle))
    return [row, detail]
  }

  return liveFilter(form, app, {
    // The console route names scripts, links audit entries and refuses a filter it cannot apply (status `4`).
    path: (filters) => `/console/journal${query({ ...filters, status: filters.status?.trim(), script: filters.script?.trim(), since: since || undefined, limit: LIMIT })}`,
    show,
    reset: () => ((since = 0), (shown = 0), body.replaceChildren()),
  })
}

// A body the journal kept only in part (past its per-entry cap) says so, with both sizes.
function cut(side) {
  const t = side.truncated
  return t ? h('p', { class: 'muted' }, `Body truncated: first ${t.kept_bytes} of ${t.bytes} bytes kept.`) : null
}
