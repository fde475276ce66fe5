// Audit log: every write attempt, filterable by workspace, key, decision, script; each expands to the full record.
import { get, query } from '../api.js'
import { badge, empty, field, h, json, mount, select, when } from '../dom.js'
import { liveFilter } from '../live-filter.js'

const DECISIONS = [['', 'any'], ['run', 'run'], ['hold', 'hold'], ['block', 'block']]
const STATUSES = ['', 'executed', 'pending_review', 'approved', 'rejected', 'expired', 'blocked', 'failed', 'dry_run']

export function render(main, app) {
  const form = h('form', { class: 'filters', 'aria-label': 'Filter the audit log' })
  const list = h('div', { class: 'entries', id: 'audit-list' })
  const count = h('p', { class: 'muted', 'aria-live': 'polite' })
  mount(main, h('h2', {}, 'Audit log'), h('p', { class: 'lede' }, 'Every write the gate saw, newest first: what it decided, why, and what became of it.'), form, count, list)
  const scripts = h('datalist', { id: 'audit-scripts' })
  const rows = new Map()

  void get('/console/overview').then((world) => {
    const keys = [...world.workspaces.flatMap((w) => w.keys), ...world.unpinned_keys]
    mount(form,
      field('Workspace', select('workspace_id', [['', 'all'], ...world.workspaces.map((w) => [w.id, `${w.name} (${w.id})`])])),
      field('Key', select('key_prefix', [['', 'all'], ...keys.map((k) => [k.prefix, `${k.name} · ${k.prefix}…`])])),
      field('Decision', select('decision', DECISIONS)),
      field('Status', select('status', STATUSES.map((s) => [s, s || 'any']))),
      field('Script', h('input', { name: 'script', type: 'search', list: 'audit-scripts', placeholder: 'e.g. enable_campaign', spellcheck: 'false' })),
      scripts)
  }).catch(app.fail)

  function show(res) {
    const shown = res.entries
    count.textContent = `${res.total} matching entries${res.has_more ? ` (newest ${shown.length} shown)` : ''}`
    const known = new Set([...scripts.children].map((o) => o.value))
    for (const e of shown) if (!known.has(e.script)) (known.add(e.script), scripts.append(h('option', { value: e.script })))
    for (const entry of shown) upsert(entry)
    const ids = new Set(shown.map((e) => e.id))
    for (const [id, row] of rows) if (!ids.has(id)) (row.el.remove(), rows.delete(id))
    // Keep newest first without re-creating rows (open entries stay open).
    shown.forEach((entry, i) => {
      const el = rows.get(entry.id).el
      if (list.children[i] !== el) list.insertBefore(el, list.children[i] ?? null)
    })
    list.querySelector('.empty')?.remove()
    if (shown.length === 0) list.append(empty('No audit entries match.'))
  }

  function upsert(entry) {
    const stamp = JSON.stringify(entry)
    const existing = rows.get(entry.id)
    if (existing?.stamp === stamp) return
    const el = h('details', { class: 'entry', dataset: { auditId: entry.id } },
      h('summary', {},
        h('time', { datetime: entry.at }, when(entry.at)), ' ',
        h('strong', {}, entry.script), ' ', badge(entry.decision), ' ', badge(entry.status.replace('_', ' '), entry.status), ' ',
        h('code', {}, `${entry.key_prefix}…`), ' ', h('span', { class: 'muted' }, entry.workspace_id)),
      h('p', {}, `The gate decided “${entry.decision}” (rule ${entry.rule}): ${entry.reason}`),
      explain(entry.explanation),
      entry.review ? h('p', {}, `${entry.review.action === 'approve' ? 'Approved' : 'Rejected'} by ${entry.review.by} at ${when(entry.review.at)}.`) : null,
      h('p', {}, h('code', { class: 'args' }, [entry.script, ...entry.args].join(' '))),
      json(entry))
    if (existing) {
      el.open = existing.el.open
      existing.el.replaceWith(el)
    }
    rows.set(entry.id, { el, stamp })
    if (!existing) list.append(el)
  }

  return liveFilter(form, app, {
    // The control plane filters (exact script name); newest first.
    path: (filters) => `/audit${query({ ...filters, script: filters.script?.trim(), limit: 200 })}`,
    show,
    reset: () => (rows.clear(), list.replaceChildren()),
  })
}

/** The gate's explanation as sentences: which list, hours window or limit decided. */
function explain(x) {
  if (!x) return null
  const lines = []
  if (x.list) lines.push(`Matched “${x.list.matched}” in the policy list ${x.list.name} [${x.list.entries.join(', ')}].`)
  if (x.hours) lines.push(`Operating hours ${x.hours.days.join(', ')} ${x.hours.start}–${x.hours.end} ${x.hours.timezone}; it was ${x.hours.local_day} ${x.hours.local_time} there (${x.hours.within ? 'inside' : 'outside'}).`)
  if (x.limit) lines.push(`${x.limit.name} is ${x.limit.limit}; this write: ${x.limit.value} (budget ${x.limit.current} → ${x.limit.proposed} ${x.limit.currency}, campaign ${x.limit.campaign_id}).`)
  return lines.length ? h('ul', { class: 'explain' }, lines.map((l) => h('li', {}, l))) : null
}
