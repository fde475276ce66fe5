// Audit log: every write attempt, filterable by workspace, key, decision, script; each expands to the full record.
import { get, query } from '../api.js'
import { badge, empty, field, h, json, mount, select, time } from '../dom.js'
import { liveFilter } from '../live-filter.js'
import { askedBy, changeLines, decisionLabel, explain, outcomeKind, outcomeLabel, statusLabel, surfaceLabel, writeSummary } from '../words.js'

const DECISIONS = [['', 'any'], ['run', 'ran at once'], ['hold', 'held for review'], ['block', 'blocked']]
const STATUSES = ['', 'executed', 'pending_review', 'approved', 'rejected', 'expired', 'blocked', 'failed', 'dry_run']

/** `#audit` lists; `#audit/<audit_id>` (the journal links there) also shows that entry open on top. */
export function render(main, app, auditId) {
  const form = h('form', { class: 'filters', 'aria-label': 'Filter the audit log' })
  const list = h('div', { class: 'entries', id: 'audit-list' })
  const count = h('p', { class: 'muted', 'aria-live': 'polite' })
  const one = h('section', { id: 'audit-one', 'aria-label': 'Linked audit entry', hidden: !auditId })
  mount(main, h('h2', {}, 'Audit log'), h('p', { class: 'lede' }, 'Every write the gate saw, newest first: what it decided, why, and what became of it.'), one, form, count, list)
  const scripts = h('datalist', { id: 'audit-scripts' })
  const rows = new Map()
  // Names for the rows (campaigns by id, keys by prefix with their user), filled from the world view.
  const names = { campaigns: new Map(), keys: new Map(), workspaces: new Map() }

  const world = get('/console/overview').then((world) => {
    const keys = [...world.workspaces.flatMap((w) => w.keys), ...world.unpinned_keys]
    const userName = (id) => world.users.find((u) => u.id === id)?.name ?? id
    for (const ws of world.workspaces) {
      names.workspaces.set(ws.id, ws.name)
      for (const c of ws.campaigns) names.campaigns.set(c.id, c)
    }
    for (const k of keys) names.keys.set(k.prefix, { name: k.name, user_name: userName(k.user_id) })
    mount(form,
      field('Workspace', select('workspace_id', [['', 'all'], ...world.workspaces.map((w) => [w.id, `${w.name} (${w.id})`])])),
      field('Key', select('key_prefix', [['', 'all'], ...keys.map((k) => [k.prefix, `${k.name} · ${k.prefix}…`])])),
      field('Decision', select('decision', DECISIONS)),
      field('Status', select('status', STATUSES.map((s) => [s, s ? statusLabel(s) : 'any']))),
      field('Script', h('input', { name: 'script', type: 'search', list: 'audit-scripts', placeholder: 'e.g. enable_campaign', spellcheck: 'false' })),
      scripts)
  }).catch(app.fail)

  if (auditId) {
    void get(`/audit/${encodeURIComponent(auditId)}`).then(async (entry) => {
      await world.catch(() => undefined)
      const el = entryElement(entry, names)
      el.open = true
      mount(one, h('h3', {}, `Entry ${entry.id}`, ' ', h('a', { href: '#audit' }, 'show all')), el)
    }).catch(app.fail)
  }

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
    const el = entryElement(entry, names)
    if (existing) {
      el.open = existing.el.open
      existing.el.replaceWith(el)
    }
    rows.set(entry.id, { el, stamp })
    if (!existing) list.append(el)
  }

  // The first rows wait for the names, so a row never shows a bare id and then changes under the reader.
  const ready = world.catch(() => undefined)
  return liveFilter(form, app, {
    // The control plane filters (exact script name); newest first.
    path: (filters) => `/audit${query({ ...filters, script: filters.script?.trim(), limit: 200 })}`,
    show: (res) => void ready.then(() => show(res)),
    reset: () => (rows.clear(), list.replaceChildren()),
  })
}

/**
 * One audit entry. Collapsed, it says what happened to what in words: the change (`Daily budget of
 * “Spring”: $190.00 → $170.00 (−$20.00/day)`), one outcome (`held, approved by Rey and run`), who asked
 * (key name and its user) and through what. Opened: the gate's reasons, before → after, the review, the JSON.
 */
function entryElement(entry, names) {
  const changes = changeLines(entry)
  return h('details', { class: 'entry', dataset: { auditId: entry.id } },
    h('summary', {},
      time(entry.at), ' ',
      h('strong', {}, writeSummary(entry, names.campaigns)), ' ', badge(outcomeLabel(entry), outcomeKind(entry)), ' ',
      h('span', { class: 'muted' }, `asked by ${askedBy(entry, names.keys)} via ${surfaceLabel(entry.surface)} · ${names.workspaces.get(entry.workspace_id) ?? entry.workspace_id}`)),
    h('p', {}, `The gate ${decisionLabel(entry.decision)} (rule ${entry.rule}): ${entry.reason}`),
    explain(entry.explanation),
    changes.length ? h('div', { class: 'changes' }, h('h3', {}, 'What changed'), h('ul', {}, changes.map((line) => h('li', {}, line)))) : null,
    entry.result?.message ? h('p', {}, entry.result.message) : null,
    entry.review ? h('p', {}, `${entry.review.action === 'approve' ? 'Approved' : 'Rejected'} by ${entry.review.by} at `, time(entry.review.at), '.') : null,
    h('p', {}, h('code', { class: 'args' }, [entry.script, ...entry.args].join(' ')), ' ', h('span', { class: 'muted' }, `status ${statusLabel(entry.status)} · key `), h('code', {}, `${entry.key_prefix}…`)),
    h('details', { class: 'raw' }, h('summary', {}, 'Full record (JSON)'), json(entry, `Audit entry ${entry.id} as JSON`)))
}
