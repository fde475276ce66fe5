import type { Operation, Policy } from './model.js'
import { iso } from './durations.js'

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
  script: string
  operation: Operation
  /** Budget writes: the campaign's current and proposed daily budget (for limits and thresholds). */
  budget?: { campaign_id: string; current: number; proposed: number; currency: string }
}

/** The gate's verdict, with the rule that decided it; part of the response and the audit record. */
export interface GateDecision {
  action: 'run' | 'hold' | 'block'
  /** Stable id of the deciding rule, e.g. `hold.operation`, `block.tool`, `default.run`. */
  rule: string
  /** One human sentence explaining the decision. */
  reason: string
  /** Sandbox time at which the policy was evaluated. */
  evaluated_at: string
}

/**
 * Decides run / hold / block for a write under a workspace policy (GATE-01..03). Pure: the same
 * policy, write and instant always give the same decision. Blocks win over holds.
 */
export function decideWrite(policy: Policy, write: WriteIntent, now: number): GateDecision {
  const evaluated_at = iso(now)
  if (policy.block_tools.includes(write.script)) {
    return { action: 'block', rule: 'block.tool', reason: `The policy blocks the tool ${write.script}.`, evaluated_at }
  }
  if (policy.hold.includes(write.operation)) {
    return { action: 'hold', rule: 'hold.operation', reason: `The policy holds ${write.operation} operations for review.`, evaluated_at }
  }
  return { action: 'run', rule: 'default.run', reason: `The policy lets ${write.operation} operations run at once.`, evaluated_at }
}
