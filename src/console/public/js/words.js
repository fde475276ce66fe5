// Audit records in words: human status labels, the gate's explanation, and before → after of a write.
import { h } from './dom.js'

const STATUS_LABELS = {
  executed: 'executed', pending_review: 'waiting for review', approved: 'approved and run', rejected: 'rejected',
  expired: 'expired unreviewed', blocked: 'blocked by policy', failed: 'failed', dry_run: 'dry run (nothing changed)',
}
const DECISION_LABELS = { run: 'ran at once', hold: 'held for review', block: 'blocked' }

/** `pending_review` → `waiting for review`. */
export const statusLabel = (status) => STATUS_LABELS[status] ?? String(status).replace(/_/g, ' ')
/** `hold` → `held for review`. */
export const decisionLabel = (decision) => DECISION_LABELS[decision] ?? decision

/** The gate's explanation as sentences: which list, hours window or limit decided. */
export function explain(x) {
  if (!x) return null
  const lines = []
  if (x.list) lines.push(`Matched “${x.list.matched}” in the policy list ${x.list.name} [${x.list.entries.join(', ')}]${x.list.blocks ? `: it blocks ${x.list.blocks.operation} on ${x.list.blocks.resource} under every name` : ''}.`)
  if (x.hours) lines.push(`Operating hours ${x.hours.days.join(', ')} ${x.hours.start}–${x.hours.end} ${x.hours.timezone}; it was ${x.hours.local_day} ${x.hours.local_time} there (${x.hours.within ? 'inside' : 'outside'}).`)
  if (x.limit) lines.push(`${x.limit.name} is ${x.limit.limit}; this write: ${x.limit.value} (budget ${x.limit.current} → ${x.limit.proposed} ${x.limit.currency}, ${x.limit.campaign_id === null ? 'a new campaign' : `campaign ${x.limit.campaign_id}`}).`)
  return lines.length ? h('ul', { class: 'explain' }, lines.map((l) => h('li', {}, l))) : null
}

const FIELD_NAMES = { daily_budget: 'Daily budget', status: 'Status', campaign_name: 'Name' }

function value(v, currency, key) {
  if (v === undefined || v === null) return '—'
  if (key === 'daily_budget' && typeof v === 'number') return `${v.toFixed(2)}${currency ? ` ${currency}` : ''}`
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

/**
 * What an executed write changed, one sentence per field: `Daily budget 190.00 → 285.00 USD (+95.00/day)`.
 * Returns [] when the record carries no before/after (held, blocked, or a write without state).
 */
export function changeLines(entry) {
  const before = entry.before && typeof entry.before === 'object' ? entry.before : {}
  const after = entry.after && typeof entry.after === 'object' ? entry.after : {}
  const currency = entry.result?.daily_budget?.currency ?? entry.result?.currency ?? after.currency ?? null
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
  const subject = entry.result?.campaign_name ? `“${entry.result.campaign_name}”: ` : ''
  if (!entry.before && entry.after) return [`${subject}created ${keys.map((k) => `${FIELD_NAMES[k] ?? k} ${value(after[k], currency, k)}`).join(', ')}`]
  return keys.map((k) => {
    const delta = typeof before[k] === 'number' && typeof after[k] === 'number' ? after[k] - before[k] : null
    const per = delta === null ? '' : ` (${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(2)}/day)`
    return `${subject}${FIELD_NAMES[k] ?? k} ${value(before[k], null, k)} → ${value(after[k], currency, k)}${per}`
  })
}
