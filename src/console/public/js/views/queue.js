// Review queue: held writes with their gate reason, submitter, cost and expiry; approve or reject.
import { post } from '../api.js'
import { badge, duration, empty, field, h, mount, when } from '../dom.js'

const REVIEWER_KEY = 'adops-sandbox.reviewer'

export function render(main, app) {
  const reviewer = h('input', { id: 'reviewer', name: 'reviewer', autocomplete: 'name', required: true, placeholder: 'e.g. Rey Reviewer', value: sessionStorage.getItem(REVIEWER_KEY) ?? '' })
  reviewer.addEventListener('change', () => sessionStorage.setItem(REVIEWER_KEY, reviewer.value.trim()))
  const list = h('div', { class: 'cards', id: 'queue-list', 'aria-live': 'polite', 'aria-busy': 'true' })
  const cards = new Map()
  mount(main,
    h('h2', {}, 'Review queue'),
    h('p', { class: 'lede' }, 'Writes the safety gate held for a person. Approving runs the write with exactly the arguments shown, once; rejecting runs nothing.'),
    h('div', { class: 'toolbar' }, field('Reviewer name', reviewer)),
    list)

  async function decide(entry, action) {
    const name = reviewer.value.trim()
    if (!name) {
      app.say('Enter a reviewer name first.')
      reviewer.focus()
      return
    }
    sessionStorage.setItem(REVIEWER_KEY, name)
    try {
      const result = await post(`/reviews/${encodeURIComponent(entry.id)}/${action}`, { reviewer: name })
      const status = result?.status ?? result?.audit?.status ?? (action === 'approve' ? 'approved' : 'rejected')
      app.say(`${action === 'approve' ? 'Approved' : 'Rejected'} ${entry.script} (${entry.id}) as ${name}: ${status}.`)
      app.clearAlert()
    } catch (error) {
      app.fail(error)
    }
    await app.refresh()
    ;(list.querySelector('button') ?? reviewer).focus()
  }

  function card(entry) {
    const countdown = h('span', { class: 'countdown', dataset: { expires: entry.expires_at ?? '' } })
    const titleId = `q-${entry.id}`
    return h('article', { class: 'card', 'aria-labelledby': titleId, dataset: { auditId: entry.id } },
      h('header', {}, h('h3', { id: titleId }, entry.script), badge(entry.operation), badge('pending review', 'pending_review')),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Arguments'), h('dd', {}, h('code', { class: 'args' }, entry.args.join(' ') || '(none)')),
        h('dt', {}, 'Gate'), h('dd', {}, entry.reason, ' ', h('span', { class: 'muted' }, `(${entry.rule})`)),
        h('dt', {}, 'Submitted by'), h('dd', {}, `${entry.user_name} · key ${entry.key_name ?? ''} `, h('code', {}, `${entry.key_prefix}…`), ` · ${entry.surface} · ${when(entry.at)}`),
        h('dt', {}, 'Workspace'), h('dd', {}, entry.workspace_name ?? entry.workspace_id),
        h('dt', {}, 'Cost'), h('dd', {}, entry.cost === null ? '—' : `${entry.cost} credits, charged on approval`),
        h('dt', {}, 'Expires'), h('dd', {}, countdown, entry.expires_at ? h('span', { class: 'muted' }, ` (${when(entry.expires_at)})`) : null)),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'approve', 'aria-label': `Approve ${entry.script} ${entry.id}`, onclick: () => decide(entry, 'approve') }, 'Approve'),
        h('button', { type: 'button', class: 'reject danger', 'aria-label': `Reject ${entry.script} ${entry.id}`, onclick: () => decide(entry, 'reject') }, 'Reject')))
  }

  function update({ queue }) {
    list.setAttribute('aria-busy', 'false')
    const ids = new Set(queue.entries.map((e) => e.id))
    for (const [id, el] of cards) if (!ids.has(id)) (el.remove(), cards.delete(id))
    for (const entry of queue.entries) {
      if (cards.has(entry.id)) continue
      const el = card(entry)
      cards.set(entry.id, el)
      list.append(el)
    }
    list.querySelector('.empty')?.remove()
    if (cards.size === 0) list.append(empty('No writes are waiting for review.'))
    tick()
  }

  function tick() {
    const now = app.now()
    for (const el of list.querySelectorAll('.countdown')) {
      const expires = Date.parse(el.dataset.expires)
      el.textContent = Number.isNaN(expires) ? 'never' : now === null ? '…' : expires <= now ? 'expired' : `in ${duration(expires - now)}`
    }
  }

  const timer = setInterval(tick, 500)
  const off = app.onTick(update)
  return () => (clearInterval(timer), off())
}
