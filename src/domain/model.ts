/** Record shapes of the sandbox state. Times are ISO-8601 strings of sandbox time. */
import type { GateExplanation } from './policy.js'

export interface User {
  id: string
  email: string
  name: string
  created_at: string
  /** The suffix of the world copy this user belongs to (issue 19; absent: not a copy). */
  copy?: string
}

/** Monetary/credit settings of a workspace (ERR-02). */
export interface Credits {
  balance: number
  payment_method: boolean
}

/** A token bucket: `capacity` requests, refilled at `refill_per_second` (ERR-03, ERR-04). */
export interface Bucket {
  capacity: number
  refill_per_second: number
}

export interface RateLimits {
  per_key: Bucket | null
  per_workspace: Bucket | null
}

/**
 * Operation classes of write scripts; the gate decides per class (GATE-03). `publish`, `external`
 * and `update` class the writes of a loaded tool catalog (issue 35; `catalog-snapshot.ts`).
 */
export const OPERATIONS = ['read', 'pause', 'budget', 'enable', 'remove', 'creative', 'create', 'audience', 'publish', 'external', 'update'] as const
export type Operation = (typeof OPERATIONS)[number]

export interface OperatingHours {
  timezone: string
  days: string[]
  start: string
  end: string
}

/** The workspace safety policy (GATE-01..03 and the sandbox decisions in RULES.md). */
export interface Policy {
  hold: Operation[]
  block_tools: string[]
  operating_hours: OperatingHours | null
  limits: { max_daily_budget: number | null; max_budget_increase_pct: number | null }
  hold_budget_increase_pct: number | null
  review_ttl_hours: number
}

export interface Workspace {
  id: string
  name: string
  owner_user_id: string
  parent_id: string | null
  created_at: string
  credits: Credits
  policy: Policy
  rate_limits: RateLimits
  /** The workspace's own test clock, layered on the sandbox clock (issue 19; absent: the sandbox clock). */
  clock?: WorkspaceClockState | null
  /** The suffix of the world copy this workspace belongs to (issue 19; absent: not a copy). */
  copy?: string
  /** Landing-page titles set through the control plane, by page id, over the generated ones (issue 20). */
  landing_pages?: Record<string, { title: string }>
}

/** A workspace clock: `offset_ms` from the sandbox clock, or frozen at an instant (docs/decisions.md). */
export interface WorkspaceClockState {
  offset_ms: number
  frozen_at: number | null
}

export type Role = 'owner' | 'admin' | 'member'

export interface Membership {
  id: string
  user_id: string
  workspace_id: string
  role: Role
  status: 'active' | 'removed'
  created_at: string
  removed_at: string | null
}

/** A key as stored: hash and prefix only, never the value (KEY-02, sandbox decision). */
export interface KeyRecord {
  id: string
  name: string
  hash: string
  prefix: string
  scopes: string[]
  user_id: string
  workspace_id: string | null
  parent_key_id: string | null
  created_at: string
  expires_at: string | null
  last_used_at: string | null
  revoked_at: string | null
}

export interface Connection {
  id: string
  workspace_id: string
  platform: string
  account_id: string
  account_name: string
  currency: string
  status: 'active' | 'disconnected'
  created_at: string
  source: 'world' | 'connect_link'
}

export type CampaignStatus = 'ENABLED' | 'PAUSED' | 'REMOVED'

/** A fake Google campaign; metrics are derived from it and the clock, not stored. */
export interface Campaign {
  id: string
  workspace_id: string
  connection_id: string
  platform: string
  campaign_name: string
  channel_type: string
  status: CampaignStatus
  daily_budget: number
  currency: string
  bidding_strategy: string
  created_at: string
  /** Status changes in time order; metrics stop accruing while not ENABLED. */
  status_history: Array<{ at: string; status: CampaignStatus }>
  /** Budget changes in time order; a change applies from the next simulated day. */
  budget_history: Array<{ at: string; daily_budget: number }>
  /** Per-campaign seed for deterministic metrics. */
  seed: number
}

export interface ConnectLink {
  id: string
  token_hash: string
  workspace_id: string
  key_id: string | null
  platform: string
  created_at: string
  expires_at: string
  used_at: string | null
  connection_id: string | null
  request_id: string | null
}

export interface ConnectionRequest {
  id: string
  workspace_id: string
  key_id: string
  platform: string
  link_id: string
  owner_email: string
  created_at: string
}

export type AuditStatus = 'executed' | 'failed' | 'pending_review' | 'approved' | 'rejected' | 'expired' | 'blocked' | 'dry_run'

/** One write attempt and what became of it (GATE-01..05). */
export interface AuditEntry {
  id: string
  at: string
  workspace_id: string
  key_id: string
  key_prefix: string
  user_id: string
  surface: 'rest' | 'backend' | 'mcp' | 'control'
  script: string
  args: string[]
  platform: string | null
  operation: Operation
  decision: 'run' | 'hold' | 'block'
  reason: string
  rule: string
  status: AuditStatus
  credits: number
  before: unknown
  after: unknown
  result: unknown
  expires_at: string | null
  review: { by: string; action: 'approve' | 'reject'; at: string; key_id?: string | null; comment?: string } | null
  /** Which list, hours window or limit decided (GATE-01..03); see `GateExplanation`. */
  explanation?: GateExplanation
  /** Same workspace, key, script, platform and args: a retried pending write reuses its entry. */
  dedupe_key?: string | null
}

export interface LedgerEntry {
  id: string
  at: string
  workspace_id: string
  key_id: string | null
  script: string | null
  amount: number
  balance_after: number
  reason: 'charge' | 'refund' | 'grant' | 'adjustment'
  audit_id: string | null
}

export interface OutboxMail {
  id: string
  at: string
  workspace_id: string
  to: string
  subject: string
  body: string
  link: string
  request_id: string
}

/** Token-bucket state of one key or workspace (`key:<id>` / `ws:<id>`), on the sandbox clock (ERR-03, ERR-04). */
export interface RateBucketState {
  id: string
  tokens: number
  updated_ms: number
}

/** One step of a scripted fault: respond, delay, drop the connection, or pass through; `times` null = forever. */
export interface FaultStep {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  delay_ms?: number
  drop?: boolean
  pass?: boolean
  times: number | null
}

/** A scripted fault on the public hosts (`/_sandbox/faults`): what it matches and its ordered steps. */
/** One JSONPath test on a request body: exists (default), `equals`, `contains`, `matches` (regex), or `exists: false`. */
export interface FaultBodyCondition {
  path: string
  equals?: unknown
  contains?: string
  matches?: string
  exists?: boolean
}

export interface FaultRule {
  id: string
  created_at: string
  match: {
    method?: string
    host?: 'base' | 'api'
    path?: string
    script_name?: string
    key_prefix?: string
    workspace_id?: string
    /** Dispatcher flags in `args`: `true` = present, a string = present with that value. */
    flags?: Record<string, string | true>
    /** JSONPath conditions on the JSON body; all must hold. */
    body?: FaultBodyCondition[]
    /** MCP `tools/call`: the tool name and a subset of its arguments. */
    mcp_tool?: string
    mcp_arguments?: Record<string, unknown>
  }
  steps: FaultStep[]
  /** Position in `steps` and how often the current step has fired. */
  cursor: { step: number; used: number }
  hits: number
}

/** A staged audience artifact (hashed identifiers); usable by audience scripts until `expires_at`. */
export interface AudienceArtifact {
  id: string
  workspace_id: string
  key_id: string
  script_name: string
  identifier_type: 'EMAIL' | 'PHONE'
  record_count: number
  created_at: string
  expires_at: string
}
