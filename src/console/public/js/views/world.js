// World view: clock and reset controls, then every workspace with its people, keys, connections and campaigns.
import { get, post } from '../api.js'
import { field, h, mount, select, when } from '../dom.js'
import { workspaceSection } from './world-workspace.js'
import { confirmAction } from '../confirm.js'

const STEPS = [['31m', '+31 min'], ['1h', '+1 hour'], ['1d', '+1 day'], ['3d', '+3 days']]

export function render(main, app) {
  const body = h('div', { id: 'world-body', 'aria-busy': 'true' })
  const clockNow = h('strong', { id: 'world-clock' }, '…')
  const freeze = h('button', { type: 'button', class: 'secondary', id: 'freeze' }, 'Freeze clock')
  const custom = h('input', { name: 'advance', placeholder: '2h30m', size: 8, spellcheck: 'false' })
  const worldSelect = select('world', [['default', 'default']])
  const seed = h('input', { name: 'seed', inputmode: 'numeric', size: 6, placeholder: 'world’s' })
  let frozen = false

  async function clock(change, what) {
    try {
      const c = await post('/clock', change)
      app.say(`${what}: sandbox time is now ${when(c.now)}.`)
      app.clearAlert()
      await app.refresh()
      await load()
    } catch (error) {
      app.fail(error)
    }
  }

  const advanceForm = h('form', { class: 'inline', 'aria-label': 'Advance by a duration' }, field('Advance by', custom), h('button', { type: 'submit' }, 'Advance'))
  advanceForm.addEventListener('submit', (event) => {
    event.preventDefault()
    if (custom.value.trim()) void clock({ advance: custom.value.trim() }, `Advanced ${custom.value.trim()}`)
  })
  freeze.addEventListener('click', () => void clock({ freeze: !frozen }, frozen ? 'Clock running' : 'Clock frozen'))

  // Reset drops everything and cannot be undone: a dialog names what goes, and Cancel is its default (issue 37).
  const resetButton = h('button', { type: 'button', class: 'danger', 'aria-haspopup': 'dialog' }, 'Reset world…')
  resetButton.addEventListener('click', async () => {
    const body = { world: worldSelect.value, ...(seed.value.trim() ? { seed: Number(seed.value) } : {}) }
    const audit = await get('/audit?limit=1').catch(() => null)
    const entries = audit?.total === undefined || audit?.total === null ? 'every audit entry' : `${audit.total} audit entr${audit.total === 1 ? 'y' : 'ies'}`
    const ok = await confirmAction({
      title: 'Reset the world?',
      question: `Drops all state — ${entries}, every held write waiting for review, campaign changes, keys created since, credits used and the request journal — and loads world “${body.world}”${body.seed === undefined ? '' : ` with seed ${body.seed}`}. This cannot be undone.`,
      detail: 'The sandbox clock returns to wall time. Agents holding keys created since the last reset lose them.',
      action: 'Reset and drop everything',
    })
    if (ok) await reset(body)
    else app.say('Not reset: nothing changed.')
    resetButton.focus()
  })

  async function reset(body) {
    try {
      const res = await post('/reset', body)
      app.say(`Reset: world ${res.world}, seed ${res.seed}; the audit and the request journal start empty.`)
      await app.refresh()
      await load()
    } catch (error) {
      app.fail(error)
    }
  }

  mount(main,
    h('h2', {}, 'World'),
    h('div', { class: 'panels' },
      h('section', { class: 'panel', 'aria-labelledby': 'clock-h' },
        h('h3', { id: 'clock-h' }, 'Sandbox clock'),
        h('p', {}, 'Now: ', clockNow),
        h('div', { class: 'buttons', role: 'group', 'aria-label': 'Advance the clock' },
          STEPS.map(([advance, text]) => h('button', { type: 'button', onclick: () => void clock({ advance }, `Advanced ${advance}`) }, text)), freeze),
        advanceForm),
      h('section', { class: 'panel', 'aria-labelledby': 'reset-h' },
        h('h3', { id: 'reset-h' }, 'Reset'),
        h('div', { class: 'inline' }, field('World', worldSelect), field('Seed', seed), resetButton))),
    body)

  // The reset form offers the loaded world until the person picks another one.
  let current = 'default'
  let picked = false
  worldSelect.addEventListener('change', () => (picked = true))
  const showCurrent = () => {
    if (!picked && [...worldSelect.options].some((o) => o.value === current)) worldSelect.value = current
  }
  void get('/worlds').then((res) => {
    mount(worldSelect, (res.worlds ?? []).map((n) => h('option', { value: n }, n)))
    showCurrent()
  }).catch(() => undefined)

  async function load() {
    try {
      const world = await get('/console/overview')
      current = world.world
      showCurrent()
      frozen = world.clock.frozen
      freeze.textContent = frozen ? 'Unfreeze clock' : 'Freeze clock'
      freeze.setAttribute('aria-pressed', String(frozen))
      const users = h('section', { class: 'panel' }, h('h3', {}, 'Users'),
        h('ul', {}, world.users.map((u) => h('li', {}, `${u.name} <${u.email}> `, h('span', { class: 'muted' }, u.id)))),
        world.unpinned_keys.length ? [h('h4', {}, 'Unpinned keys'), h('ul', {}, world.unpinned_keys.map((k) => h('li', {}, `${k.name} `, h('code', {}, `${k.prefix}…`), ` (${k.user_id})${k.revoked_at ? ' revoked' : ''}`)))] : null)
      mount(body, h('p', { class: 'muted' }, `World “${world.world}”, seed ${world.seed}.`), world.workspaces.map((ws) => workspaceSection(ws, world, app)), users)
      body.setAttribute('aria-busy', 'false')
    } catch (error) {
      app.fail(error)
    }
  }

  void load()
  return app.onTick(({ clock: c }) => {
    clockNow.textContent = `${when(c.now)}${c.frozen ? ' (frozen)' : ''}`
  })
}
