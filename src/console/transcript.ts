import type { AuditEntry, LedgerEntry } from '../domain/model.js'

/** Which writes a transcript covers: a sandbox-time window and optionally one key or workspace. */
export interface TranscriptFilter {
  from?: string
  to?: string
  key_prefix?: string
  workspace_id?: string
}

export interface BudgetChange {
  audit_id: string
  at: string
  campaign_id: string | null
  before: number | null
  after: number | null
  /** The daily budget the write asked for, whether or not it ran. */
  requested: number | null
  delta: number | null
  currency: string | null
  status: AuditEntry['status']
  /** The campaign's name as it is now (issue 37: transcript lines say what happened to what). */
  campaign_name?: string | null
}

/** Names the transcript's lines carry: a campaign's, and a key's with its user's. */
export interface TranscriptNames {
  campaign(id: string): string | null
  key(id: string): { name: string; user_name: string } | null
}

/** What an agent did in a window: the agent-safety transcript of the console (GATE-01..05). */
export interface Transcript {
  generated_at: string
  filter: TranscriptFilter
  totals: { attempted: number; executed: number; held: number; blocked: number; approved: number; rejected: number; expired: number; pending: number; failed: number }
  budget_changes: BudgetChange[]
  /** Sum of executed budget deltas per currency (daily budget, account currency). */
  budget_delta_by_currency: Record<string, number>
  /** `net` = `reads.net` + `writes.net`: every charge and refund of the window falls in exactly one. */
  credits: CreditTotals & { reads: CreditTotals; writes: CreditTotals }
  /** Read calls charged in the window, by script: `credits` sums to `credits.reads.net`. */
  reads: Array<{ script: string; calls: number; credits: number }>
  /** Each write's `credits` is its ledger net in the window (charge − refund): they sum to `credits.writes.net`. */
  writes: Array<Pick<AuditEntry, 'id' | 'at' | 'workspace_id' | 'key_prefix' | 'surface' | 'script' | 'args' | 'operation' | 'decision' | 'status' | 'reason' | 'credits' | 'review'>
    & { campaign_name?: string | null; key_name?: string | null; user_name?: string | null }>
}

export interface CreditTotals { charged: number; refunded: number; net: number }

// A write counts as executed once it has run: directly, or after approval.
const RAN = new Set<AuditEntry['status']>(['executed', 'approved'])

/** Builds the transcript from audit entries and the credit ledger. Pure: same input, same output. */
export function buildTranscript(input: {
  audit: readonly AuditEntry[]
  ledger: readonly LedgerEntry[]
  keyIds: ReadonlySet<string> | null
  filter: TranscriptFilter
  now: string
  /** Account currency of a campaign, for writes whose record does not name it. */
  currencyOf?: (campaignId: string) => string | null
  /** Campaign, key and user names for the lines (left out when not given). */
  names?: TranscriptNames
}): Transcript {
  const { filter } = input
  const inWindow = (at: string) => (!filter.from || at >= filter.from) && (!filter.to || at <= filter.to)
  const writes = input.audit
    .filter((a) => inWindow(a.at) && (!filter.workspace_id || a.workspace_id === filter.workspace_id) &&
      (!filter.key_prefix || a.key_prefix.startsWith(filter.key_prefix)))
    .sort((a, b) => a.at.localeCompare(b.at))
  const ledger = input.ledger.filter((l) => inWindow(l.at) && (!filter.workspace_id || l.workspace_id === filter.workspace_id) &&
    (input.keyIds === null || (l.key_id !== null && input.keyIds.has(l.key_id))))
  const names = input.names
  const campaignName = (id: string | null) => (names && id ? { campaign_name: names.campaign(id) } : {})
  const budget_changes = writes.filter((w) => w.operation === 'budget').map((w) => budgetChange(w, input.currencyOf))
    .map((b) => ({ ...b, ...campaignName(b.campaign_id) }))
  const budget_delta_by_currency: Record<string, number> = {}
  for (const change of budget_changes) {
    if (change.delta === null || !RAN.has(change.status)) continue
    const currency = change.currency ?? 'unknown'
    budget_delta_by_currency[currency] = round2((budget_delta_by_currency[currency] ?? 0) + change.delta)
  }
  const writeIds = new Set(writes.map((w) => w.id))
  // A write's charge lands when it runs (for a held write: on approval, whoever approved); it belongs to the write.
  const writeRows = input.ledger.filter((l) => l.audit_id !== null && writeIds.has(l.audit_id) && inWindow(l.at))
  const readRows = ledger.filter((l) => l.audit_id === null && (l.reason === 'charge' || l.reason === 'refund'))
  const reads = totals(readRows)
  const writeTotals = totals(writeRows)
  const count = (p: (w: AuditEntry) => boolean) => writes.filter(p).length
  return {
    generated_at: input.now,
    filter,
    totals: {
      attempted: writes.length,
      executed: count((w) => RAN.has(w.status)),
      held: count((w) => w.decision === 'hold'),
      blocked: count((w) => w.decision === 'block'),
      approved: count((w) => w.review?.action === 'approve'),
      rejected: count((w) => w.status === 'rejected'),
      expired: count((w) => w.status === 'expired'),
      pending: count((w) => w.status === 'pending_review'),
      failed: count((w) => w.status === 'failed'),
    },
    budget_changes,
    budget_delta_by_currency,
    credits: {
      charged: round2(reads.charged + writeTotals.charged), refunded: round2(reads.refunded + writeTotals.refunded),
      net: round2(reads.net + writeTotals.net), reads, writes: writeTotals,
    },
    reads: readsByScript(readRows),
    writes: writes.map(({ id, at, workspace_id, key_id, key_prefix, surface, script, args, operation, decision, status, reason, review }) =>
      ({
        id, at, workspace_id, key_prefix, surface, script, args, operation, decision, status, reason, credits: totals(writeRows.filter((l) => l.audit_id === id)).net, review,
        ...campaignName(flag(args, '--campaign-id')), ...(names ? keyNames(names, key_id) : {}),
      })),
  }
}

function keyNames(names: TranscriptNames, keyId: string): { key_name: string | null; user_name: string | null } {
  const key = names.key(keyId)
  return { key_name: key?.name ?? null, user_name: key?.user_name ?? null }
}

function totals(rows: readonly LedgerEntry[]): CreditTotals {
  const charged = sum(rows.filter((l) => l.reason === 'charge').map((l) => Math.abs(l.amount)))
  const refunded = sum(rows.filter((l) => l.reason === 'refund').map((l) => Math.abs(l.amount)))
  return { charged, refunded, net: round2(charged - refunded) }
}

function readsByScript(rows: readonly LedgerEntry[]): Transcript['reads'] {
  const by = new Map<string, { script: string; calls: number; credits: number }>()
  for (const row of rows) {
    const script = row.script ?? '(unnamed)'
    const item = by.get(script) ?? { script, calls: 0, credits: 0 }
    if (row.reason === 'charge') item.calls++
    item.credits = round2(item.credits + (row.reason === 'charge' ? Math.abs(row.amount) : row.reason === 'refund' ? -Math.abs(row.amount) : 0))
    by.set(script, item)
  }
  return [...by.values()].sort((a, b) => a.script.localeCompare(b.script))
}

function budgetChange(entry: AuditEntry, currencyOf?: (campaignId: string) => string | null): BudgetChange {
  const before = record(entry.before)
  const after = record(entry.after)
  const result = record(entry.result)
  const resultBudget = record(result?.daily_budget)
  // Held and blocked budget writes did not run; the gate's explanation still names the campaign and currency.
  const limit = record(record(entry.explanation)?.limit)
  const campaignId = str(after?.campaign_id ?? before?.campaign_id ?? result?.campaign_id ?? limit?.campaign_id) ?? flag(entry.args, '--campaign-id')
  const beforeBudget = num(before?.daily_budget) ?? num(limit?.current)
  const afterBudget = num(after?.daily_budget) ?? (RAN.has(entry.status) ? num(flag(entry.args, '--daily-budget')) : null)
  return {
    audit_id: entry.id,
    at: entry.at,
    campaign_id: campaignId,
    before: beforeBudget,
    after: afterBudget,
    requested: num(flag(entry.args, '--daily-budget')) ?? num(limit?.proposed) ?? afterBudget,
    delta: beforeBudget !== null && afterBudget !== null ? round2(afterBudget - beforeBudget) : null,
    currency: str(after?.currency ?? before?.currency ?? resultBudget?.currency ?? limit?.currency) ?? (campaignId && currencyOf ? currencyOf(campaignId) : null),
    status: entry.status,
  }
}

function flag(args: readonly string[], name: string): string | null {
  const i = args.indexOf(name)
  if (i >= 0 && i + 1 < args.length) return args[i + 1]
  const inline = args.find((a) => a.startsWith(`${name}=`))
  return inline ? inline.slice(name.length + 1) : null
}

function record(value: unknown): Record<string, unknown> | null {
  if (!value || typeof value !== 'object') return null
  const v = value as Record<string, unknown>
  // Some writes record `{campaign: {...}}` rather than the campaign itself.
  return v.campaign && typeof v.campaign === 'object' ? (v.campaign as Record<string, unknown>) : v
}

function num(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : null
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function sum(values: number[]): number {
  return round2(values.reduce((a, b) => a + b, 0))
}

function round2(n: number): number {
  return Math.round(n * 100) / 100
}
