// Review queue: held writes, each saying in words what approving it does; approve or reject.
// A decision never lands focus on another decision: focus moves to the next card's heading, and an
// approval that can raise spend first asks a question whose default button is Cancel.
import { post } from '../api.js'
import { badge, duration, empty, field, h, money, mount, time } from '../dom.js'
import { explain, surfaceLabel } from '../words.js'
import { confirmRemoval, confirmSpend } from '../confirm.js'

const REVIEWER_KEY = 'adops-sandbox.reviewer'

export function render(main, app) {
  const reviewer = h('input', { id: 'reviewer', name: 'reviewer', autocomplete: 'name', required: true, placeholder: 'e.g. Rey Reviewer', value: sessionStorage.getItem(REVIEWER_KEY) ?? '' })
  reviewer.addEventListener('change', () => sessionStorage.setItem(REVIEWER_KEY, reviewer.value.trim()))
  const list = h('div', { class: 'cards', id: 'queue-list', 'aria-live': 'polite', 'aria-busy': 'true' })
  const heading = h('h2', { tabindex: '-1' }, 'Review queue')
  const cards = new Map()
  let busy = false
  mount(main,
    heading,
    h('p', { class: 'lede' }, 'Writes the safety gate held for a person. Approving runs the write with exactly the arguments shown, once; rejecting runs nothing. Approvals that can raise spend ask first.'),
    h('div', { class: 'toolbar' }, field('Reviewer name', reviewer)),
    list)

  async function decide(entry, action, el) {
    const name = reviewer.value.trim()
    if (!name) {
      app.warn('Enter a reviewer name first: the audit records who decided.')
      reviewer.focus()
      return
    }
    if (busy) return
    // Spending money and removing a campaign (it cannot be enabled again) ask first; Cancel is the default.
    const ask = action !== 'approve' ? null : entry.effect?.confirm ? confirmSpend : entry.operation === 'remove' ? confirmRemoval : null
    if (ask && !(await ask(entry))) {
      app.say(`Not approved: ${entry.script} (${entry.id}) is still waiting.`)
      el.querySelector('h3').focus()
      return
    }
    busy = true
    sessionStorage.setItem(REVIEWER_KEY, name)
    // Where focus goes afterwards: the next card's heading (decides nothing), else the previous one, else the page heading.
    const next = el.nextElementSibling?.querySelector('h3') ?? el.previousElementSibling?.querySelector('h3') ?? null
    try {
      const result = await post(`/reviews/${encodeURIComponent(entry.id)}/${action}`, { reviewer: name })
      const status = result?.status ?? result?.audit?.status ?? (action === 'approve' ? 'approved' : 'rejected')
      app.say(`${action === 'approve' ? 'Approved' : 'Rejected'} ${entry.script} (${entry.id}) as ${name}: ${status}.`)
      app.clearAlert()
    } catch (error) {
      app.fail(error)
    }
    await app.refresh()
    busy = false
    ;(next?.isConnected ? next : heading).focus()
  }

  function card(entry) {
    const countdown = h('span', { class: 'countdown', dataset: { expires: entry.expires_at ?? '', offset: String(entry.clock_offset_ms ?? 0) } })
    const titleId = `q-${entry.id}`
    const fx = entry.effect ?? {}
    const c = fx.campaign
    const el = h('article', { class: `card${fx.raises_spend ? ' spends' : ''}`, 'aria-labelledby': titleId, dataset: { auditId: entry.id } })
    const label = `${entry.script} ${entry.id}`
    return mount(el,
      h('header', {}, h('h3', { id: titleId, tabindex: '-1' }, entry.title ?? entry.script), h('code', {}, entry.script), badge(entry.operation),
        fx.raises_spend ? badge('can raise spend', 'hold') : null),
      h('p', { class: 'effect' }, fx.summary ?? ''),
      h('dl', { class: 'facts' },
        c ? [h('dt', {}, 'Campaign'), h('dd', {}, `${c.name} `, h('span', { class: 'muted' }, `(${c.id}) · ${c.status.toLowerCase()} · ${money(c.daily_budget, c.currency)}/day now`))] : null,
        h('dt', {}, 'Arguments'), h('dd', {}, h('code', { class: 'args' }, entry.args.join(' ') || '(none)')),
        h('dt', {}, 'Why held'), h('dd', {}, entry.reason, ' ', h('span', { class: 'muted' }, `(rule ${entry.rule})`), explain(entry.explanation)),
        h('dt', {}, 'Asked by'), h('dd', {}, `key “${entry.key_name ?? '?'}” `, h('code', {}, `${entry.key_prefix}…`), ` (issued to ${entry.user_name}) · via ${surfaceLabel(entry.surface)} · `, time(entry.at)),
        h('dt', {}, 'Workspace'), h('dd', {}, entry.workspace_name ?? entry.workspace_id),
        h('dt', {}, 'Cost'), h('dd', {}, entry.cost === null ? '—' : `${entry.cost} credits, charged on approval`),
        h('dt', {}, 'Expires'), h('dd', {}, countdown, entry.expires_at ? [' (', time(entry.expires_at), ')'] : null)),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'approve', 'aria-label': `Approve ${label}`, onclick: () => decide(entry, 'approve', el) }, fx.raises_spend || entry.operation === 'remove' ? 'Approve…' : 'Approve'),
        h('button', { type: 'button', class: 'reject danger', 'aria-label': `Reject ${label}`, onclick: () => decide(entry, 'reject', el) }, 'Reject')))
  }

  function update({ queue }) {
    list.setAttribute('aria-busy', 'false')
    const ids = new Set(queue.entries.map((e) => e.id))
    for (const [id, el] of cards) if (!ids.has(id)) (el.remove(), cards.delete(id))
    for (const entry of queue.entries) {
      // The effect is recomputed on every poll (the campaign may have changed): redraw a card whose words changed.
      const stamp = JSON.stringify(entry.effect)
      const existing = cards.get(entry.id)
      if (existing?.dataset.stamp === stamp) continue
      const el = card(entry)
      el.dataset.stamp = stamp
      cards.set(entry.id, el)
      if (!existing) list.append(el)
      else {
        const hadFocus = existing.contains(document.activeElement)
        existing.replaceWith(el)
        if (hadFocus) el.querySelector('h3').focus()
      }
    }
    list.querySelector('.empty')?.remove()
    if (cards.size === 0) list.append(empty('No writes are waiting for review.'))
    tick()
  }

  function tick() {
    const now = app.now()
    for (const el of list.querySelectorAll('.countdown')) {
      const expires = Date.parse(el.dataset.expires)
      // The entry's workspace may run on its own clock: count down on that time.
      const at = now === null ? null : now + Number(el.dataset.offset || 0)
      el.textContent = Number.isNaN(expires) ? 'never' : at === null ? '…' : expires <= at ? 'expired' : `in ${duration(expires - at)}`
    }
  }

  const timer = setInterval(tick, 500)
  const off = app.onTick(update)
  return () => (clearInterval(timer), off())
}
