// Agent safety transcript: what a key (or everyone) attempted in a window, and what the gate made of it.
import { get, query, token, url } from '../api.js'
import { badge, empty, field, h, money, mount, select, when } from '../dom.js'

const TOTALS = [['attempted', 'Attempted'], ['executed', 'Executed'], ['held', 'Held'], ['blocked', 'Blocked'], ['approved', 'Approved'], ['rejected', 'Rejected'], ['expired', 'Expired'], ['pending', 'Pending']]

// datetime-local inputs carry no zone; the console works in UTC sandbox time.
const toInput = (ms) => new Date(ms).toISOString().slice(0, 16)
const fromInput = (value) => (value ? `${value.length === 16 ? `${value}:00` : value}Z` : undefined)

export function render(main, app) {
  const from = h('input', { type: 'datetime-local', name: 'from' })
  const to = h('input', { type: 'datetime-local', name: 'to' })
  const key = select('key_prefix', [['', 'every key']])
  const workspace = select('workspace_id', [['', 'every workspace']])
  const form = h('form', { class: 'filters', 'aria-label': 'Transcript window' },
    field('From (UTC)', from), field('To (UTC)', to), field('Key', key), field('Workspace', workspace),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Show transcript'), h('button', { type: 'button', class: 'secondary', id: 'download', onclick: () => void download() }, 'Download JSON')))
  const out = h('div', { id: 'transcript-out', 'aria-live': 'polite' })
  mount(main, h('h2', {}, 'Agent safety transcript'),
    h('p', { class: 'lede' }, 'For a window of sandbox time and optionally one key: writes attempted, held, blocked and executed, budget changes in the account currency, and credits spent.'),
    form, out)

  const filter = () => ({ from: fromInput(from.value), to: fromInput(to.value), key_prefix: key.value, workspace_id: workspace.value })

  async function show() {
    try {
      render(await get(`/console/transcript${query(filter())}`))
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
    mount(out,
      h('div', { class: 'totals' }, TOTALS.map(([k, label]) => h('div', { class: 'total', dataset: { total: k } }, h('span', { class: 'n' }, t.totals[k]), h('span', {}, label)))),
      h('div', { class: 'panels' },
        h('section', { class: 'panel' }, h('h3', {}, 'Budget change (executed)'),
          deltas.length ? h('ul', {}, deltas.map(([cur, d]) => h('li', { class: 'big' }, `${d > 0 ? '+' : ''}${money(d, cur)} / day`))) : empty('No executed budget changes.')),
        h('section', { class: 'panel' }, h('h3', {}, 'Credits'),
          h('p', { class: 'big' }, `${t.credits.net} spent`), h('p', { class: 'muted' }, `${t.credits.charged} charged, ${t.credits.refunded} refunded`))),
      t.budget_changes.length ? h('table', { class: 'compact' }, h('caption', {}, 'Budget writes'),
        h('thead', {}, h('tr', {}, ['Time', 'Campaign', 'Before', 'Requested', 'After', 'Change', 'Status'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, t.budget_changes.map((b) => h('tr', {}, h('td', {}, when(b.at)), h('td', {}, h('code', {}, b.campaign_id ?? '—')),
          h('td', { class: 'num' }, money(b.before, b.currency)), h('td', { class: 'num' }, money(b.requested, b.currency)), h('td', { class: 'num' }, money(b.after, b.currency)),
          h('td', { class: 'num' }, b.delta === null ? '—' : `${b.delta > 0 ? '+' : ''}${money(b.delta, b.currency)}`), h('td', {}, badge(b.status)))))) : null,
      t.writes.length ? h('table', { class: 'compact' }, h('caption', {}, 'Writes'),
        h('thead', {}, h('tr', {}, ['Time', 'Key', 'Script', 'Decision', 'Status', 'Credits', 'Reason'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, t.writes.map((w) => h('tr', {}, h('td', {}, when(w.at)), h('td', {}, h('code', {}, `${w.key_prefix}…`)), h('td', {}, w.script),
          h('td', {}, badge(w.decision)), h('td', {}, badge(w.status.replace('_', ' '), w.status)), h('td', { class: 'num' }, w.credits), h('td', {}, w.reason))))) : empty('No writes in this window.'))
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void show()
  })
  void get('/console/overview').then((world) => {
    const keys = [...world.workspaces.flatMap((w) => w.keys), ...world.unpinned_keys]
    mount(key, h('option', { value: '' }, 'every key'), keys.map((k) => h('option', { value: k.prefix }, `${k.name} · ${k.prefix}…`)))
    mount(workspace, h('option', { value: '' }, 'every workspace'), world.workspaces.map((w) => h('option', { value: w.id }, w.name)))
    from.value = toInput(Date.parse(world.now) - 24 * 3600_000)
    void show()
  }).catch(app.fail)
  return null
}
