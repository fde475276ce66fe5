// Small DOM helpers. Data is always set as text, never parsed as HTML.

/** The console's one money format (money.js): Intl, the account currency, a real minus sign. */
export { money, signedMoney } from './money.js'
import { signedAmountParts } from './money.js'

/** Creates an element: h('button', {type: 'button', onclick}, 'Approve'). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value)
    else if (name === 'class') el.className = value
    else if (name === 'dataset') Object.assign(el.dataset, value)
    else if (value === true) el.setAttribute(name, '')
    else el.setAttribute(name, String(value))
  }
  append(el, children)
  return el
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue
    if (child instanceof Node) el.append(child)
    else for (const part of signedAmountParts(String(child))) el.append(typeof part === 'string' ? document.createTextNode(part) : amountSpan(part.amount))
  }
}

// A signed amount never breaks after its sign (money.js, `signedAmountParts`).
function amountSpan(amount) {
  const span = document.createElement('span')
  span.className = 'nowrap'
  span.textContent = amount
  return span
}

/** An SVG element (the chart). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag)
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) el.setAttribute(name, String(value))
  append(el, children)
  return el
}

/** Replaces the children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren()
  append(el, children)
  return el
}

/** A labelled form control: label + input/select, linked by id. */
export function field(label, control) {
  if (!control.id) control.id = `f-${Math.random().toString(36).slice(2, 9)}`
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control)
}

export function select(name, options, value = '') {
  return h('select', { name }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)))
}

/** The console's one time format, ISO-8601 UTC: `2026-11-22T13:05:00.000Z` → `2026-11-22 13:05:00Z`. */
export function when(isoText) {
  return isoText ? `${String(isoText).replace('T', ' ').replace(/\.\d+Z$|Z$/, '')}Z` : '—'
}

/** A `<time>` element in the console's format with a machine-readable `datetime`. */
export function time(isoText) {
  return isoText ? h('time', { datetime: isoText }, when(isoText)) : '—'
}

/** A duration in ms as `2d 3h`, `71h 59m`, `4m 05s`. */
export function duration(ms) {
  if (ms <= 0) return 'expired'
  const sec = Math.floor(ms / 1000)
  const d = Math.floor(sec / 86400), hr = Math.floor((sec % 86400) / 3600), m = Math.floor((sec % 3600) / 60), ss = sec % 60
  if (d > 0) return `${d}d ${hr}h ${String(m).padStart(2, '0')}m`
  if (hr > 0) return `${hr}h ${String(m).padStart(2, '0')}m ${String(ss).padStart(2, '0')}s`
  return `${m}m ${String(ss).padStart(2, '0')}s`
}

/** JSON in a box that scrolls when long: focusable and named, so a keyboard can scroll it too. */
export function json(value, label = 'JSON') {
  return h('pre', { class: 'json', tabindex: '0', role: 'region', 'aria-label': label }, JSON.stringify(value, null, 2))
}

export function badge(text, kind = text) {
  return h('span', { class: `badge b-${String(kind).replace(/[^a-z0-9_]/gi, '')}` }, text)
}

/** Empty-state line for lists. */
export function empty(text) {
  return h('p', { class: 'empty' }, text)
}

/** A region that scrolls sideways on narrow screens; focusable and named, so a keyboard can scroll it (WCAG 2.1.1). */
export function scrollRegion(label, child) {
  return h('div', { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': label }, child)
}
