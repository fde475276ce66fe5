// Confirmations before anything that spends money or cannot be undone: a modal <dialog> naming the
// consequence, whose focused default is Cancel, so Enter or Escape never goes ahead by accident.
import { h, mount } from './dom.js'

let opened = 0

/**
 * Asks before an action; resolves true only when the person chooses `action` (a click, or Enter
 * after tabbing to it). Cancel has focus first; Enter on it, Escape or closing resolve false.
 * `{title, question, detail?, action}`: the heading, the consequence in words, a muted line, the go-ahead label.
 */
export function confirmAction({ title, question, detail, action }) {
  const n = ++opened
  const dialog = h('dialog', { class: 'confirm-spend', 'aria-labelledby': `confirm-title-${n}`, 'aria-describedby': `confirm-text-${n}` })
  const cancel = h('button', { type: 'button', class: 'secondary', autofocus: true }, 'Cancel')
  const go = h('button', { type: 'button', class: 'approve danger-go' }, action)
  mount(dialog,
    h('h2', { id: `confirm-title-${n}` }, title),
    h('p', { id: `confirm-text-${n}`, class: 'question' }, question),
    detail ? h('p', { class: 'muted' }, detail) : null,
    h('div', { class: 'actions' }, cancel, go))
  document.body.append(dialog)
  return new Promise((resolve) => {
    const close = (answer) => {
      dialog.close()
      dialog.remove()
      resolve(answer)
    }
    cancel.addEventListener('click', () => close(false))
    go.addEventListener('click', () => close(true))
    dialog.addEventListener('cancel', (event) => (event.preventDefault(), close(false)))
    dialog.showModal()
    cancel.focus()
  })
}

/** Before approving a write that can raise spend: the money, in the server's words (`effect.confirm`). */
export function confirmSpend(entry) {
  return confirmAction({
    title: 'Approve a write that spends money?',
    question: entry.effect.confirm,
    detail: `${entry.script} · ${entry.args.join(' ')} · asked by key “${entry.key_name ?? "?"}” (issued to ${entry.user_name})`,
    action: 'Approve and spend',
  })
}

/** Before approving a removal: a removed campaign cannot be enabled again. */
export function confirmRemoval(entry) {
  const name = entry.effect?.campaign?.name
  return confirmAction({
    title: 'Remove a campaign for good?',
    question: `${entry.effect?.summary ?? `Removes ${name ? `“${name}”` : 'a campaign'}.`} This cannot be undone.`,
    detail: `${entry.script} · ${entry.args.join(' ')} · asked by key “${entry.key_name ?? "?"}” (issued to ${entry.user_name})`,
    action: 'Remove for good',
  })
}
