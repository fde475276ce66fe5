// The confirmation before approving a write that can raise spend: a modal <dialog> naming the money,
// whose focused default is Cancel, so Enter or Escape never approves by accident.
import { h, mount } from './dom.js'

/** Resolves true only when the person chooses the approve button; Cancel, Escape or closing resolve false. */
export function confirmSpend(entry) {
  const dialog = h('dialog', { class: 'confirm-spend', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' })
  const cancel = h('button', { type: 'button', class: 'secondary', autofocus: true }, 'Cancel')
  const approve = h('button', { type: 'button', class: 'approve' }, 'Approve and spend')
  mount(dialog,
    h('h2', { id: 'confirm-title' }, 'Approve a write that spends money?'),
    h('p', { id: 'confirm-text', class: 'question' }, entry.effect.confirm),
    h('p', { class: 'muted' }, `${entry.script} · ${entry.args.join(' ')} · asked by ${entry.user_name} (${entry.key_prefix}…)`),
    h('div', { class: 'actions' }, cancel, approve))
  document.body.append(dialog)
  return new Promise((resolve) => {
    const close = (answer) => {
      dialog.close()
      dialog.remove()
      resolve(answer)
    }
    cancel.addEventListener('click', () => close(false))
    approve.addEventListener('click', () => close(true))
    dialog.addEventListener('cancel', (event) => (event.preventDefault(), close(false)))
    dialog.showModal()
    cancel.focus()
  })
}
