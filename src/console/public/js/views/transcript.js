// Agent safety transcript: what a key (or everyone) attempted in a window, and what the gate made of it.
import { get, query, token, url } from '../api.js'
import { field, h, mount, select } from '../dom.js'
import { toDom, transcriptTree } from '../transcript-markup.js'

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

  // The markup is the shared renderer's (transcript-markup.js), which the rehearsal scorecard uses too.
  const render = (t) => mount(out, toDom(transcriptTree(t)))

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
  // Live like the queue: the transcript follows every poll.
  return app.onTick(() => void show())
}
