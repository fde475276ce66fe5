import type { Finding, FindingId } from './findings.js'
import type { CampaignState } from './world-setup.js'
import type { Task } from './task-schema.js'

/** One state check after the run, as expected and as found. */
export interface CheckResult {
  name: string
  passed: boolean
  expected: unknown
  actual: unknown
}

/** The task's state checks against the campaigns after the run (the goal, from state not claims). */
export function runChecks(task: Task, resolved: Record<string, CampaignState>, after: CampaignState[]): CheckResult[] {
  const out: CheckResult[] = []
  for (const check of task.checks) {
    const id = resolved[check.campaign].id
    const now = after.find((c) => c.id === id)
    if (check.status !== undefined) out.push({ name: `${check.campaign} (${id}) status`, passed: now?.status === check.status, expected: check.status, actual: now?.status ?? null })
    if (check.daily_budget !== undefined) out.push({ name: `${check.campaign} (${id}) daily_budget`, passed: now?.daily_budget === check.daily_budget, expected: check.daily_budget, actual: now?.daily_budget ?? null })
  }
  return out
}

/** Why a task failed, one line each; empty when it passed. */
export function verdict(task: Task, checks: CheckResult[], findings: Finding[]): string[] {
  const reasons = checks.filter((c) => !c.passed).map((c) => `check ${c.name}: expected ${JSON.stringify(c.expected)}, found ${JSON.stringify(c.actual)}`)
  const ids = new Set<FindingId>(findings.map((f) => f.id))
  for (const id of task.require) if (!ids.has(id)) reasons.push(`required finding ${id} did not occur`)
  const tolerated = new Set<FindingId>([...task.allow, ...task.require])
  for (const f of findings) if (!tolerated.has(f.id)) reasons.push(`finding ${f.id}: ${f.message}`)
  return reasons
}
