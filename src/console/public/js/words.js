// Audit records in words: human status labels, the gate's explanation, who asked, through what, and
// what a write did to which campaign (before → after), money in the console's one format (money.js).
import { h } from './dom.js'
import { money, signedMoney } from './money.js'

const STATUS_LABELS = {
  executed: 'executed', pending_review: 'waiting for review', approved: 'approved, running', rejected: 'rejected',
  expired: 'expired unreviewed', blocked: 'blocked by policy', failed: 'failed', dry_run: 'dry run (nothing changed)',
}
const DECISION_LABELS = { run: 'ran at once', hold: 'held for review', block: 'blocked' }
// The four ways a write reaches the gate, as a person would say them (not `rest` / `backend`).
const SURFACE_LABELS = {
  rest: 'the tools endpoint (POST /api/v1/tools/run)', backend: 'the campaigns API (/v1)', mcp: 'an MCP client', control: 'the sandbox control plane',
}

/** `pending_review` → `waiting for review`. */
export const statusLabel = (status) => STATUS_LABELS[status] ?? String(status).replace(/_/g, ' ')
/** `hold` → `held for review`. */
export const decisionLabel = (decision) => DECISION_LABELS[decision] ?? decision
/** `rest` → `the tools endpoint (POST /api/v1/tools/run)`. */
export const surfaceLabel = (surface) => SURFACE_LABELS[surface] ?? String(surface)

/**
 * What became of a write, in one phrase that the gate's decision and the status never contradict:
 * `ran at once`, `held, approved by Rey Reviewer and run`, `held, rejected by Rey Reviewer`, `blocked by policy`.
 */
export function outcomeLabel(entry) {
  const by = entry.review?.by ? ` by ${entry.review.by}` : ''
  if (entry.decision === 'block' || entry.status === 'blocked') return 'blocked by policy'
  if (entry.decision !== 'hold') return entry.status === 'executed' ? 'ran at once' : statusLabel(entry.status)
  if (entry.status === 'pending_review') return 'held: waiting for review'
  if (entry.status === 'rejected') return `held, rejected${by}`
  if (entry.status === 'expired') return 'held, expired unreviewed'
  if (entry.status === 'executed') return `held, approved${by} and run`
  if (entry.status === 'failed') return `held, approved${by}, then failed`
  return `held, ${statusLabel(entry.status)}`
}

/** The badge kind of an outcome: green ran, amber waiting, red refused. */
export function outcomeKind(entry) {
  if (entry.status === 'executed') return 'executed'
  if (entry.status === 'pending_review' || entry.status === 'approved') return 'pending_review'
  if (entry.status === 'expired' || entry.status === 'dry_run') return 'expired'
  return 'blocked'
}

const pct = (n) => `${Math.round(n * 100) / 100}%`
const LIMIT_WORDS = {
  hold_budget_increase_pct: (l) => `Raises of a daily budget above ${pct(l.limit)} wait for a person; this one raises it ${pct(l.value)}`,
  max_budget_increase_pct: (l) => `Raises of a daily budget above ${pct(l.limit)} are refused; this one raises it ${pct(l.value)}`,
  max_daily_budget: (l) => `Daily budgets above ${money(l.limit, l.currency)} are refused; this one asks for ${money(l.value, l.currency)}`,
}

/** The gate's explanation as sentences: which list, hours window or limit decided. */
export function explain(x) {
  if (!x) return null
  const lines = []
  if (x.list) lines.push(`Matched “${x.list.matched}” in the policy list ${x.list.name} [${x.list.entries.join(', ')}]${x.list.blocks ? `: it blocks ${x.list.blocks.operation} on ${x.list.blocks.resource} under every name` : ''}.`)
  if (x.hours) lines.push(`Operating hours ${x.hours.days.join(', ')} ${x.hours.start}–${x.hours.end} ${x.hours.timezone}; it was ${x.hours.local_day} ${x.hours.local_time} there (${x.hours.within ? 'inside' : 'outside'}).`)
  if (x.limit) {
    const l = x.limit
    const words = LIMIT_WORDS[l.name]?.(l) ?? `${l.name.replace(/_/g, ' ')} is ${l.limit}; this write: ${l.value}`
    lines.push(`${words} (${l.campaign_id === null ? `a new campaign at ${money(l.proposed, l.currency)}` : `${money(l.current, l.currency)} → ${money(l.proposed, l.currency)}`}).`)
  }
  return lines.length ? h('ul', { class: 'explain' }, lines.map((l) => h('li', {}, l))) : null
}

const FIELD_NAMES = { daily_budget: 'Daily budget', status: 'Status', campaign_name: 'Name' }

function value(v, currency, key) {
  if (v === undefined || v === null) return '—'
  if (key === 'daily_budget' && typeof v === 'number') return money(v, currency)
  if (key === 'status' && typeof v === 'string') return v.toLowerCase()
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

/** The currency an entry's amounts are in: its record's, else its campaign's (names), else none. */
function currencyOf(entry, campaign) {
  return entry.result?.daily_budget?.currency ?? entry.result?.currency ?? entry.after?.currency ?? entry.before?.currency ?? entry.explanation?.limit?.currency ?? campaign?.currency ?? null
}

/**
 * What an executed write changed, one sentence per field: `“Spring”: Daily budget $190.00 → $285.00 (+$95.00/day)`.
 * Returns [] when the record carries no before/after (held, blocked, or a write without state).
 */
export function changeLines(entry) {
  const before = entry.before && typeof entry.before === 'object' ? entry.before : {}
  const after = entry.after && typeof entry.after === 'object' ? entry.after : {}
  const currency = currencyOf(entry, null)
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
  const name = entry.result?.campaign_name ?? after.campaign_name ?? before.campaign_name
  const subject = name ? `“${name}”: ` : ''
  if (!entry.before && entry.after) return [`${subject}created ${keys.map((k) => `${FIELD_NAMES[k] ?? k} ${value(after[k], currency, k)}`).join(', ')}`]
  return keys.map((k) => {
    const delta = typeof before[k] === 'number' && typeof after[k] === 'number' ? after[k] - before[k] : null
    const per = delta === null ? '' : ` (${signedMoney(delta, currency)}/day)`
    return `${subject}${FIELD_NAMES[k] ?? k} ${value(before[k], currency, k)} → ${value(after[k], currency, k)}${per}`
  })
}

const VERBS = {
  enable: 'Enable', pause: 'Pause', remove: 'Remove', budget: 'Daily budget of', creative: 'Change the ads of', create: 'Create', audience: 'Audience change in', read: 'Read',
}

/** The value of `--name` in a dispatcher argument list (space or `=` form), or null. */
export function flag(args, name) {
  const list = Array.isArray(args) ? args : []
  const i = list.indexOf(name)
  if (i >= 0 && i + 1 < list.length) return list[i + 1]
  const inline = list.find((a) => typeof a === 'string' && a.startsWith(`${name}=`))
  return inline ? inline.slice(name.length + 1) : null
}

/**
 * What a write does to what, in words, for a collapsed audit row (issue 37): `Daily budget of
 * “Spring”: $190.00 → $170.00 (−$20.00/day)`, `Enable “Games New Arrivals”`, `Create campaign “New” ($50.00/day)`.
 * `campaigns` maps an id to `{campaign_name, daily_budget, currency}` (the world view's list).
 */
export function writeSummary(entry, campaigns = new Map()) {
  const id = flag(entry.args, '--campaign-id')
  const campaign = id ? campaigns.get(id) ?? null : null
  const name = entry.result?.campaign_name ?? entry.after?.campaign_name ?? campaign?.campaign_name ?? flag(entry.args, '--campaign-name')
  const currency = currencyOf(entry, campaign)
  const target = name ? `“${name}”` : id ? `campaign ${id}` : ''
  const verb = VERBS[entry.operation] ?? entry.script
  if (entry.operation === 'budget') {
    const before = typeof entry.before?.daily_budget === 'number' ? entry.before.daily_budget : entry.explanation?.limit?.current
    const proposed = Number(flag(entry.args, '--daily-budget'))
    const after = typeof entry.after?.daily_budget === 'number' ? entry.after.daily_budget : Number.isFinite(proposed) ? proposed : entry.explanation?.limit?.proposed
    if (typeof after === 'number') {
      const change = typeof before === 'number' ? `${money(before, currency)} → ${money(after, currency)} (${signedMoney(after - before, currency)}/day)` : `to ${money(after, currency)}`
      return `${verb} ${target || 'a campaign'}: ${change}`
    }
  }
  if (entry.operation === 'create') {
    const daily = Number(flag(entry.args, '--daily-budget'))
    return `Create ${name ? `campaign “${name}”` : `with ${entry.script}`}${Number.isFinite(daily) && flag(entry.args, '--daily-budget') !== null ? ` (${money(daily, currency)}/day)` : ''}`
  }
  return target ? `${verb} ${target}` : `${verb} (${entry.script})`
}

/** Who asked, by key name and the user the key was issued to: `key “agent” (issued to Olivia Owner)`. `keys` maps a key prefix to `{name, user_name}`. */
export function askedBy(entry, keys = new Map()) {
  const key = keys.get(entry.key_prefix)
  return key ? `key “${key.name}” (issued to ${key.user_name})` : `key ${entry.key_prefix}…`
}
