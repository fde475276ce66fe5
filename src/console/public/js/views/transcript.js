// Agent safety transcript: what a key (or everyone) attempted in a window, and what the gate made of it.
import { get, query, token, url } from '../api.js'
import { badge, empty, field, h, money, mount, scrollRegion, select, time } from '../dom.js'
import { decisionLabel, statusLabel } from '../words.js'

const TOTALS = [['attempted', 'Writes attempted'], ['executed', 'Executed'], ['held', 'Held for review'], ['blocked', 'Blocked'], ['approved', 'Approved'], ['rejected', 'Rejected'], ['expired', 'Expired unreviewed'], ['pending', 'Waiting for review']]

// Plain text in the console's one time format (UTC): a datetime-local input would show the browser's 12/24-hour locale.
const toInput = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')
const fromInput = (value) => {
  const v = value.trim()
  return /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d$/.test(v) ? `${v.replace(' ', 'T')}:00Z` : v || undefined
}

export function render(main, app) {
  const from = h('input', { name: 'from', placeholder: 'YYYY-MM-DD HH:MM', size: 16, spellcheck: 'false' })
  const to = h('input', { name: 'to', placeholder: 'now', size: 16, spellcheck: 'false' })
  const key = select('key_prefix', [['', 'every key']])
  const workspace = select('workspace_id', [['', 'every workspace']])
  const form = h('form', { class: 'filters', 'aria-label': 'Transcript window' },
    field('From (UTC, YYYY-MM-DD HH:MM)', from), field('To (UTC, empty = now)', to), field('Key', key), field('Workspace', workspace),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Show transcript'), h('button', { type: 'button', class: 'secondary', id: 'download', onclick: () => void download() }, 'Download JSON')))
  const out = h('div', { id: 'transcript-out', 'aria-live': 'polite' })
  mount(main, h('h2', {}, 'Agent safety transcript'),
    h('p', { class: 'lede' }, 'For a window of sandbox time and optionally one key: writes attempted, held, blocked and executed, budget changes in the account currency, and credits spent.'),
    form, out)

  const filter = () => ({ from: fromInput(from.value), to: fromInput(to.value), key_prefix: key.value, workspace_id: workspace.value })

  let shown = ''
  async function show() {
    try {
      const t = await get(`/console/transcript${query(filter())}`)
      // Re-render only when something changed, so a live update keeps the reader's place.
      const stamp = JSON.stringify({ ...t, generated_at: null })
      if (stamp !== shown) (shown = stamp, render(t))
      app.clearAlert()
    } catch (error) {
      app.fail(error)
    }
  }

  async function download() {
    try {
      const res = await fetch(url(`/console/transcript${query({ ...filter(), download: '1' })}`), { headers: token() ? { 'x-sandbox-admin': token() } : {} })
      if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error ?? `HTTP ${res.status}`)
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'agent-transcript.json'
      const href = URL.createObjectURL(new Blob([await res.text()], { type: 'application/json' }))
      const a = h('a', { href, download: name, hidden: true })
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(href), 1000)
      app.say(`Downloaded ${name}.`)
    } catch (error) {
      app.fail(error)
    }
  }

  function render(t) {
    const deltas = Object.entries(t.budget_delta_by_currency)
    const c = t.credits
    mount(out,
      h('div', { class: 'totals' }, TOTALS.map(([k, label]) => h('div', { class: 'total', dataset: { total: k } }, h('span', { class: 'n' }, t.totals[k]), h('span', {}, label)))),
      h('div', { class: 'panels' },
        h('section', { class: 'panel' }, h('h3', {}, 'Budget change (executed)'),
          deltas.length ? h('ul', {}, deltas.map(([cur, d]) => h('li', { class: 'big' }, `${d > 0 ? '+' : ''}${money(d, cur)} / day`))) : empty('No executed budget changes.')),
        h('section', { class: 'panel', dataset: { credits: c.net } }, h('h3', {}, 'Credits'),
          h('p', { class: 'big' }, `${c.net} credits spent`),
          h('p', {}, `${c.reads.net} on reads + ${c.writes.net} on writes`),
          h('p', { class: 'muted' }, `${c.charged} charged, ${c.refunded} refunded`))),
      budgetTable(t.budget_changes),
      table('Reads (credits by script)', ['Script', 'Calls', 'Credits'], t.reads.map((r) => [r.script, num(r.calls), num(r.credits)]),
        ['Reads total', num(t.reads.reduce((a, r) => a + r.calls, 0)), num(c.reads.net)], 'No charged reads in this window.'),
      table('Writes', ['Time', 'Key', 'Script', 'Gate', 'Outcome', 'Credits', 'Reason'], t.writes.map((w) => [time(w.at), h('code', {}, `${w.key_prefix}…`), w.script,
        badge(decisionLabel(w.decision), w.decision), badge(statusLabel(w.status), w.status), num(w.credits), w.reason]),
        ['Writes total', '', '', '', '', num(c.writes.net), ''], 'No writes in this window.'))
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void show()
  })
  const num = (v) => h('span', { class: 'num' }, String(v))
  function table(caption, headers, rows, footer, none) {
    if (!rows.length) return h('div', {}, h('h3', {}, caption), empty(none))
    return scrollRegion(caption, h('table', { class: 'compact' }, h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((x) => h('td', {}, x))))),
      h('tfoot', {}, h('tr', {}, footer.map((x, i) => (i === 0 ? h('th', { scope: 'row' }, x) : h('td', {}, x)))))))
  }
  function budgetTable(changes) {
    if (!changes.length) return null
    return scrollRegion('Budget writes', h('table', { class: 'compact' }, h('caption', {}, 'Budget writes'),
      h('thead', {}, h('tr', {}, ['Time', 'Campaign', 'Before', 'Requested', 'After', 'Change', 'Outcome'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, changes.map((b) => h('tr', {}, h('td', {}, time(b.at)), h('td', {}, h('code', {}, b.campaign_id ?? '—')),
        h('td', { class: 'num' }, money(b.before, b.currency)), h('td', { class: 'num' }, money(b.requested, b.currency)), h('td', { class: 'num' }, money(b.after, b.currency)),
        h('td', { class: 'num' }, b.delta === null ? '—' : `${b.delta > 0 ? '+' : ''}${money(b.delta, b.currency)}`), h('td', {}, badge(statusLabel(b.status), b.status)))))))
  }

  void get('/console/overview').then((world) => {
    const keys = [...world.workspaces.flatMap((w) => w.keys), ...world.unpinned_keys]
    mount(key, h('option', { value: '' }, 'every key'), keys.map((k) => h('option', { value: k.prefix }, `${k.name} · ${k.prefix}…`)))
    mount(workspace, h('option', { value: '' }, 'every workspace'), world.workspaces.map((w) => h('option', { value: w.id }, w.name)))
    from.value = toInput(Date.parse(world.now) - 24 * 3600_000)
    void show()
  }).catch(app.fail)
  // Live like the queue: the transcript follows every poll.
  return app.onTick(() => void show())
}
