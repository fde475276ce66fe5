// The agent safety transcript's markup, one renderer for two hosts: the console's transcript view
// turns the tree into DOM nodes (data set as text, never parsed as HTML), and the rehearsal
// scorecard (src/rehearse/html-report.ts, in Node) serializes it to HTML. Pure: no DOM, no fetch.
import { when } from './dom.js'
import { money, signedAmountParts, signedMoney } from './money.js'
import { decisionLabel, reasonText, statusLabel, surfaceLabel } from './words.js'

export const TOTALS = [['attempted', 'Writes attempted'], ['executed', 'Executed'], ['held', 'Held for review'], ['blocked', 'Blocked'], ['approved', 'Approved'], ['rejected', 'Rejected'], ['expired', 'Expired unreviewed'], ['pending', 'Waiting for review']]

/** An element as data: `{ tag, attrs, children }`; the same signature as dom.js's `h`. */
export function el(tag, attrs = {}, ...children) {
  const kids = children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false)
  return { tag, attrs: attrs ?? {}, children: kids }
}

const badge = (text, kind = text) => el('span', { class: `badge b-${String(kind).replace(/[^a-z0-9_]/gi, '')}` }, text)
const empty = (text) => el('p', { class: 'empty' }, text)
const time = (isoText) => (isoText ? el('time', { datetime: isoText }, when(isoText)) : '—')
const scrollRegion = (label, child) => el('div', { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': label }, child)
const num = (v) => el('span', { class: 'num' }, String(v))

/** The transcript object of `GET /_sandbox/console/transcript` as a list of element trees. */
export function transcriptTree(t) {
  const deltas = Object.entries(t.budget_delta_by_currency)
  const c = t.credits
  return [
    el('div', { class: 'totals' }, TOTALS.map(([k, label]) => el('div', { class: 'total', dataset: { total: k } }, el('span', { class: 'n' }, t.totals[k]), el('span', {}, label)))),
    el('div', { class: 'panels' },
      el('section', { class: 'panel' }, el('h3', {}, 'Budget change (executed)'),
        deltas.length ? el('ul', {}, deltas.map(([cur, d]) => el('li', { class: 'big' }, `${signedMoney(d, cur)} / day`))) : empty('No executed budget changes.')),
      el('section', { class: 'panel', dataset: { credits: c.net } }, el('h3', {}, 'Credits'),
        el('p', { class: 'big' }, `${c.net} credits spent`),
        el('p', {}, `${c.reads.net} on reads + ${c.writes.net} on writes`),
        el('p', { class: 'muted' }, `${c.charged} charged, ${c.refunded} refunded`))),
    budgetTable(t.budget_changes),
    table('Reads (credits by script)', ['Script', 'Calls', 'Credits'], t.reads.map((r) => [r.script, num(r.calls), num(r.credits)]),
      ['Reads total', num(t.reads.reduce((a, r) => a + r.calls, 0)), num(c.reads.net)], 'No charged reads in this window.'),
    table('Writes', ['Time', 'Asked by', 'What', 'Gate', 'Outcome', 'Credits', 'Reason'], t.writes.map((w) => [time(w.at), askedBy(w), what(w),
      badge(decisionLabel(w.decision), w.decision), badge(statusLabel(w.status), w.status), num(w.credits), reasonText(w)]),
      ['Writes total', '', '', '', '', num(c.writes.net), ''], 'No writes in this window.'),
  ].filter(Boolean)
}

// Who asked, by key name and the key's user, and through which surface, in words (issue 37).
function askedBy(w) {
  const key = w.key_name ? `key “${w.key_name}”` : 'key'
  return [key, ' ', el('code', {}, `${w.key_prefix}…`), w.user_name ? ` (issued to ${w.user_name})` : '', w.surface ? el('span', { class: 'muted' }, ` via ${surfaceLabel(w.surface)}`) : null]
}

// The script and, for a campaign write, the campaign's name.
function what(w) {
  return [el('span', { class: 'script' }, w.script), w.campaign_name ? ` “${w.campaign_name}”` : '']
}

function table(caption, headers, rows, footer, none) {
  if (!rows.length) return el('div', {}, el('h3', {}, caption), empty(none))
  return scrollRegion(caption, el('table', { class: 'compact' }, el('caption', {}, caption),
    el('thead', {}, el('tr', {}, headers.map((x) => el('th', { scope: 'col' }, x)))),
    el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((x) => el('td', {}, x))))),
    el('tfoot', {}, el('tr', {}, footer.map((x, i) => (i === 0 ? el('th', { scope: 'row' }, x) : el('td', {}, x)))))))
}

function budgetTable(changes) {
  if (!changes.length) return null
  return scrollRegion('Budget writes', el('table', { class: 'compact' }, el('caption', {}, 'Budget writes'),
    el('thead', {}, el('tr', {}, ['Time', 'Campaign', 'Before', 'Requested', 'After', 'Change', 'Outcome'].map((x) => el('th', { scope: 'col' }, x)))),
    el('tbody', {}, changes.map((b) => el('tr', {}, el('td', {}, time(b.at)), el('td', {}, b.campaign_name ? [`“${b.campaign_name}” `, el('code', {}, b.campaign_id)] : el('code', {}, b.campaign_id ?? '—')),
      el('td', { class: 'num' }, money(b.before, b.currency)), el('td', { class: 'num' }, money(b.requested, b.currency)), el('td', { class: 'num' }, money(b.after, b.currency)),
      el('td', { class: 'num' }, b.delta === null ? '—' : signedMoney(b.delta, b.currency)), el('td', {}, badge(statusLabel(b.status), b.status)))))))
}

// Attribute order and escaping as a browser serializes (`outerHTML`), so both hosts give the same text.
const attrName = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
const escapeText = (s) => s.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
// A signed amount in a `nowrap` span, as dom.js sets it in the console (money.js, `signedAmountParts`).
const text = (s) => signedAmountParts(String(s)).map((p) => (typeof p === 'string' ? escapeText(p) : `<span class="nowrap">${escapeText(p.amount)}</span>`)).join('')
const attr = (s) => String(s).replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function attrsOf(attrs) {
  const out = []
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (name === 'dataset') for (const [k, v] of Object.entries(value)) out.push([`data-${attrName(k)}`, String(v)])
    else out.push([name, value === true ? '' : String(value)])
  }
  return out
}

/** Serializes element trees to HTML text (Node: the scorecard). */
export function toHtml(nodes) {
  return [nodes].flat(Infinity).map((n) => (typeof n === 'object' && n !== null
    ? `<${n.tag}${attrsOf(n.attrs).map(([k, v]) => ` ${k}="${attr(v)}"`).join('')}>${toHtml(n.children)}</${n.tag}>`
    : text(n))).join('')
}

/** Builds DOM nodes from element trees (the browser: the console), every value set as text. */
export function toDom(nodes, doc = document) {
  return [nodes].flat(Infinity).flatMap((n) => {
    if (typeof n !== 'object' || n === null) return textNodes(String(n), doc)
    const node = doc.createElement(n.tag)
    for (const [k, v] of attrsOf(n.attrs)) node.setAttribute(k, v)
    node.append(...toDom(n.children, doc))
    return [node]
  })
}

// Text, with each signed amount in a `nowrap` span (as `text` writes it for the scorecard).
function textNodes(s, doc) {
  return signedAmountParts(s).map((p) => {
    if (typeof p === 'string') return doc.createTextNode(p)
    const span = doc.createElement('span')
    span.setAttribute('class', 'nowrap')
    span.textContent = p.amount
    return span
  })
}

/** The transcript as HTML text. */
export const transcriptHtml = (t) => toHtml(transcriptTree(t))
