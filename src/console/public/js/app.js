// Console shell: token form, sandbox clock, one polling loop, hash routing between views.
import { ApiError, get, setToken, token } from './api.js'
import { mount, when } from './dom.js'
import * as queue from './views/queue.js'
import * as audit from './views/audit.js'
import * as journal from './views/journal.js'
import * as world from './views/world.js'
import * as transcript from './views/transcript.js'
import * as faults from './views/faults.js'

const VIEWS = { queue, audit, journal, world, transcript, faults }
const POLL_MS = 1500
const $ = (id) => document.getElementById(id)

const clock = { now: null, frozen: false, fetchedAt: 0 }
const listeners = new Set()
let cleanup = null

/** Shared services handed to every view. */
const app = {
  /** Current sandbox time in ms, ticking locally between polls unless the clock is frozen. */
  now: () => (clock.now === null ? null : clock.now + (clock.frozen ? 0 : performance.now() - clock.fetchedAt)),
  /** Runs `fn(tick)` after every poll; returns an unsubscribe function. */
  onTick: (fn) => (listeners.add(fn), () => listeners.delete(fn)),
  /** Polls now (after an action), instead of waiting for the next round. */
  refresh: () => poll(),
  say(text) {
    $('status').textContent = text
    $('status').dataset.kind = 'ok'
  },
  /** A problem the person can fix (e.g. a missing reviewer name): shown as a warning, not a success. */
  warn(text) {
    $('status').textContent = text
    $('status').dataset.kind = 'warn'
  },
  fail(error) {
    const alert = $('alert')
    alert.hidden = false
    alert.dataset.source = 'action'
    if (error instanceof ApiError && (error.code === 'ADMIN_TOKEN_REQUIRED' || error.code === 'ADMIN_TOKEN_RATE_LIMITED')) {
      alert.textContent = token()
        ? 'The admin token was refused. Enter the token the sandbox printed at start (its banner, or .sandbox/state.admin-token).'
        : 'This sandbox needs an admin token: open the console link the sandbox printed at start, or enter its token above (kept in this tab only).'
    } else {
      alert.textContent = error instanceof ApiError ? `${error.message}${error.code ? ` (${error.code})` : ''}` : String(error?.message ?? error)
    }
  },
  clearAlert() {
    $('alert').hidden = true
  },
}

let polling = false
async function poll() {
  if (polling) return
  polling = true
  try {
    // One call: the queue carries the sandbox clock, read together with its entries.
    const q = await get('/console/queue')
    const c = { now: q.now, frozen: q.frozen }
    Object.assign(clock, { now: Date.parse(q.now), frozen: q.frozen, fetchedAt: performance.now() })
    $('queue-count').textContent = q.entries.length ? String(q.entries.length) : ''
    $('clock-state').textContent = c.frozen ? 'frozen' : ''
    if ($('alert').dataset.source === 'poll') app.clearAlert()
    for (const fn of listeners) fn({ clock: c, queue: q })
  } catch (error) {
    app.fail(error)
    $('alert').dataset.source = 'poll'
  } finally {
    polling = false
  }
}

function showClock() {
  const now = app.now()
  $('sandbox-now').textContent = now === null ? '…' : when(new Date(now).toISOString())
  if (now !== null) $('sandbox-now').setAttribute('datetime', new Date(now).toISOString())
}

function route() {
  // `#audit/aud_123`: a view and an optional argument (the journal links to audit entries).
  const [view, arg] = location.hash.slice(1).split('/')
  const name = view in VIEWS ? view : 'queue'
  for (const link of document.querySelectorAll('nav.tabs a')) {
    if (link.dataset.view === name) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  cleanup?.()
  listeners.clear()
  app.clearAlert()
  const main = mount($('main'))
  document.title = `${document.querySelector(`nav.tabs a[data-view="${name}"]`).firstChild.textContent.trim()} · adops-sandbox console`
  cleanup = VIEWS[name].render(main, app, arg ? decodeURIComponent(arg) : undefined) ?? null
  void poll()
}

function setupToken() {
  const input = $('admin-token')
  input.value = token()
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault()
    setToken(input.value.trim())
    app.say(input.value.trim() ? 'Admin token set for this tab.' : 'No admin token.')
    route()
  })
  $('token-clear').addEventListener('click', () => {
    input.value = ''
    setToken('')
    app.say('Admin token forgotten.')
    route()
  })
}

setupToken()
window.addEventListener('hashchange', route)
setInterval(poll, POLL_MS)
setInterval(showClock, 250)
route()
