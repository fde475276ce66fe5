import type { OperatingHours, Operation, Policy } from './model.js'
import { iso } from './durations.js'
import { extend } from '../support/objects.js'
import type { BlockableEntry, BlockTarget } from './tool-blocks.js'
import { blockingEntry } from './tool-blocks.js'
import { CATALOG } from './catalog.js'

/**
 * The default workspace policy (GATE-03): pause and budget changes run at once; enabling,
 * removing, sending creative and creating campaigns are held; nothing is blocked.
 */
export function defaultPolicy(): Policy {
  return {
    hold: ['enable', 'remove', 'creative', 'create'],
    block_tools: [],
    operating_hours: null,
    limits: { max_daily_budget: null, max_budget_increase_pct: null },
    hold_budget_increase_pct: null,
    review_ttl_hours: 72,
  }
}

/** What the gate needs to know about a write. */
export interface WriteIntent {
  /** The catalog entry's canonical name. */
  script: string
  operation: Operation
  /** What the operation acts on (the entry's `resource`; left out, the entry itself). */
  resource?: string
  /** The catalog `block_tools` names resolve through (default: the built-in catalog). */
  catalog?: readonly BlockableEntry[]
  /**
   * Writes that set a daily budget: the campaign's current and proposed budget (for limits and
   * thresholds). A campaign being created has `campaign_id: null` and `current: 0`, so only
   * `max_daily_budget` applies to it (GATE-02 sandbox decision).
   */
  budget?: { campaign_id: string | null; current: number; proposed: number; currency: string }
}

/** Which part of the policy decided, and on what facts; stored in the audit record. */
export interface GateExplanation {
  /**
   * The policy list that matched (`block_tools` by the operation on a resource its entry names,
   * `hold` by operation class); `blocks` is what the matched `block_tools` entry resolved to.
   */
  list?: { name: 'block_tools' | 'hold'; matched: string; entries: string[]; blocks?: BlockTarget }
  /** The operating-hours window, evaluated at the sandbox time in the policy's time zone. */
  hours?: OperatingHours & { evaluated_at: string; local_day: string; local_time: string; within: boolean }
  /** The monetary limit that decided; `value` is a daily budget or an increase in percent. */
  limit?: {
    name: 'max_daily_budget' | 'max_budget_increase_pct' | 'hold_budget_increase_pct'
    limit: number
    value: number
    campaign_id: string | null
    current: number
    proposed: number
    currency: string
  }
}

/** The gate's verdict, with the rule that decided it; part of the response and the audit record. */
export interface GateDecision {
  action: 'run' | 'hold' | 'block'
  /**
   * Stable id of the deciding rule: `block.tool`, `block.operating_hours`, `block.max_daily_budget`,
   * `block.max_budget_increase_pct`, `hold.operation`, `hold.budget_increase_pct` or `default.run`.
   */
  rule: string
  /** One human sentence explaining the decision. */
  reason: string
  /** Sandbox time at which the policy was evaluated. */
  evaluated_at: string
  explanation: GateExplanation
}

/**
 * Decides run / hold / block for a write under a workspace policy (GATE-01..03). Pure: the same
 * policy, write and instant always give the same decision. Blocks win over holds, checked in this
 * order: blocked tool, operating hours, max daily budget, max budget increase; then holds: the
 * operation class, the budget-increase hold threshold.
 */
export function decideWrite(policy: Policy, write: WriteIntent, now: number): GateDecision {
  const evaluated_at = iso(now)
  const hours = policy.operating_hours ? evaluateHours(policy.operating_hours, now) : undefined
  const explanation: GateExplanation = hours ? { hours } : {}
  const decide = (action: GateDecision['action'], rule: string, reason: string, more: GateExplanation = {}): GateDecision =>
    ({ action, rule, reason, evaluated_at, explanation: extend(explanation, more) })

  const blocked = blockingEntry(policy.block_tools, { name: write.script, operation: write.operation, resource: write.resource }, write.catalog ?? CATALOG)
  if (blocked) {
    const via = blocked.entry === write.script ? '' : ` (block_tools names ${blocked.entry}: the same ${blocked.target.operation} on ${blocked.target.resource})`
    return decide('block', 'block.tool', `The policy blocks the tool ${write.script}${via}.`, { list: { name: 'block_tools', matched: blocked.entry, entries: policy.block_tools, blocks: blocked.target } })
  }
  if (hours && !hours.within) {
    return decide('block', 'block.operating_hours', `Writes are allowed only ${describeWindow(hours)}; it is ${hours.local_day} ${hours.local_time} there (sandbox time ${evaluated_at}).`)
  }
  const budget = write.budget
  const maxBudget = policy.limits.max_daily_budget
  if (budget && maxBudget !== null && budget.proposed > maxBudget) {
    return decide('block', 'block.max_daily_budget', `A daily budget of ${budget.proposed} ${budget.currency} exceeds the policy maximum of ${maxBudget}.`, { limit: limitFacts('max_daily_budget', maxBudget, budget.proposed, budget) })
  }
  const increase = budget && budget.current > 0 ? round2(((budget.proposed - budget.current) / budget.current) * 100) : null
  const maxIncrease = policy.limits.max_budget_increase_pct
  if (budget && increase !== null && maxIncrease !== null && increase > maxIncrease) {
    return decide('block', 'block.max_budget_increase_pct', `Raising the daily budget by ${increase}% (${budget.current} → ${budget.proposed} ${budget.currency}) exceeds the policy maximum increase of ${maxIncrease}%.`, { limit: limitFacts('max_budget_increase_pct', maxIncrease, increase, budget) })
  }
  if (policy.hold.includes(write.operation)) {
    return decide('hold', 'hold.operation', `The policy holds ${write.operation} operations for review.`, { list: { name: 'hold', matched: write.operation, entries: policy.hold } })
  }
  const holdAbove = policy.hold_budget_increase_pct
  if (budget && increase !== null && holdAbove !== null && increase > holdAbove) {
    return decide('hold', 'hold.budget_increase_pct', `Raising the daily budget by ${increase}% (${budget.current} → ${budget.proposed} ${budget.currency}) is above the review threshold of ${holdAbove}%.`, { limit: limitFacts('hold_budget_increase_pct', holdAbove, increase, budget) })
  }
  return decide('run', 'default.run', `The policy lets ${write.operation} operations run at once.`)
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']

/**
 * Whether `now` falls in the window, read in the window's IANA time zone. `start` is inclusive and
 * `end` exclusive; `end` before `start` is an overnight window that belongs to the day it starts
 * on; `start` equal to `end` means the whole day.
 */
export function evaluateHours(window: OperatingHours, now: number): NonNullable<GateExplanation['hours']> {
  const { day, minutes, time } = localTime(window.timezone, now)
  const start = toMinutes(window.start)
  const end = toMinutes(window.end)
  let within: boolean
  if (start === end) within = window.days.includes(day)
  else if (start < end) within = window.days.includes(day) && minutes >= start && minutes < end
  // Overnight: the early-morning part belongs to the previous day's window.
  else if (minutes >= start) within = window.days.includes(day)
  else within = minutes < end && window.days.includes(WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7])
  return extend(window, { evaluated_at: iso(now), local_day: day, local_time: time, within })
}

function localTime(timeZone: string, now: number): { day: string; minutes: number; time: string } {
  const parts = formatterFor(timeZone).formatToParts(now)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  const hour = Number(get('hour')) % 24
  const minute = Number(get('minute'))
  return { day: get('weekday').slice(0, 3).toLowerCase(), minutes: hour * 60 + minute, time: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}` }
}

// Building an Intl.DateTimeFormat costs far more than formatting with one; gated writes reuse it per zone.
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

function toMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number)
  return h * 60 + m
}

function describeWindow(hours: OperatingHours): string {
  const span = hours.start === hours.end ? 'all day' : `${hours.start}–${hours.end}`
  return `${span} on ${hours.days.join(', ')} (${hours.timezone})`
}

function limitFacts(name: NonNullable<GateExplanation['limit']>['name'], limit: number, value: number, budget: NonNullable<WriteIntent['budget']>): NonNullable<GateExplanation['limit']> {
  return { name, limit, value, campaign_id: budget.campaign_id, current: budget.current, proposed: budget.proposed, currency: budget.currency }
}

function round2(n: number): number {
  return Math.round(n * 100) / 100
}
