import type { Policy } from './model.js'

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
