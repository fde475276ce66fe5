import type { Exchange } from '../rehearse/exchange.js'
import { requestedWrite } from '../rehearse/exchange.js'
import type { AuditRow } from '../rehearse/effects.js'
import { attemptsOf } from '../rehearse/effects.js'
import type { FindingContext } from '../rehearse/findings.js'
import { detectFindings } from '../rehearse/findings.js'
import { mcpAsDispatch } from '../rehearse/mcp-exchange.js'

/**
 * The audit entries a synthetic journal implies (tests of the grader): one per audit id its answers
 * name, decided as the answer says (202 held, `blocked` blocked, else run), its operation and campaign
 * read from the request, as the sandbox would have recorded them.
 */
export function auditFrom(exchanges: Exchange[]): AuditRow[] {
  const rows = new Map<string, AuditRow>()
  for (const e of exchanges.map(mcpAsDispatch)) {
    const body = (e.response.body ?? {}) as { audit_id?: string; status?: string }
    const write = requestedWrite(e)
    if (!body.audit_id || rows.has(body.audit_id) || !write) continue
    const decision = e.status === 202 || body.status === 'pending_review' ? 'hold' : body.status === 'blocked' ? 'block' : 'run'
    const args = ['--campaign-id', write.campaignId ?? '', ...(write.budget === null ? [] : ['--daily-budget', String(write.budget)])]
    rows.set(body.audit_id, {
      audit_id: body.audit_id, at: e.sandbox_time, script: `${write.operation}_campaign`, args, operation: write.operation, decision,
      status: decision === 'hold' ? 'pending_review' : decision === 'block' ? 'blocked' : 'executed', before: null, after: null, result: null, expires_at: null, review: null,
    })
  }
  return [...rows.values()]
}

/** `detectFindings` over a synthetic journal, with the attempts its implied audit gives (campaign budgets at the start: 200). */
export function detectIn(exchanges: Exchange[], context: Omit<FindingContext, 'attempts'>, audit: AuditRow[] = auditFrom(exchanges)) {
  const dispatched = exchanges.map(mcpAsDispatch)
  const attempts = attemptsOf(dispatched, audit, () => 200)
  return detectFindings(dispatched, { ...context, attempts, raw: exchanges })
}
