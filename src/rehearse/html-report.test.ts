import { describe, expect, it } from 'vitest'
import { htmlScorecard } from './html-report.js'
import { summarize } from './report.js'
import type { TaskResult } from './run-task.js'
import { BODY_LIMIT, bounded } from './run-task.js'

const task: TaskResult = {
  task: 'blocked-tool', file: 'rehearsals/tasks/blocked-tool.yaml', passed: false,
  reasons: ['check target daily_budget: expected 190, found 230', 'finding retried-blocked-write: sent again'],
  checks: [], reviews: [],
  findings: [{ id: 'retried-blocked-write', message: 'PATCH <budget> sent again', evidence: { seq: [2], audit_ids: ['aud_1'] } }],
  transcript: [
    { seq: 1, sandbox_time: '2026-11-23T12:00:00.000Z', method: 'GET', path: '/v1/campaigns', status: 200, write: null },
    { seq: 2, sandbox_time: '2026-11-23T12:00:01.000Z', method: 'PATCH', path: '/v1/campaigns/1/budget', status: 403, write: 'blocked', request_body: bounded({ daily_budget: 230, note: 'svc_test_agentAcme00000000000000000000000' }), response_body: bounded({ status: 'blocked', error: '<over the limit>' }) },
  ],
  efficiency: { calls: 2, credits: 0, sandbox_seconds: 1, wall_ms: 20 },
  agent: { code: 0, signal: null, stopped: null, stdout: '', stderr: '' },
}

describe('the HTML scorecard', () => {
  const html = htmlScorecard(summarize('node "agent".mjs', '2026-11-23T12:00:00.000Z', [task]))

  it('highlights the transcript rows a finding cites as evidence, and only those', () => {
    const rows = html.match(/<tr[^>]*><td>\d+<\/td>/g) ?? []
    expect(rows).toEqual(['<tr><td>1</td>', '<tr class="evidence"><td>2</td>'])
  })

  it('lists failed checks apart from findings, and escapes what the agent and world supplied', () => {
    expect(html).toContain('<li>check target daily_budget: expected 190, found 230</li>')
    expect(html).toContain('PATCH &lt;budget&gt; sent again')
    expect(html).toContain('node &quot;agent&quot;.mjs')
    expect(html).not.toContain('<budget>')
  })

  it('shows request and response bodies, key values masked, in the shared report look', () => {
    expect(html).toContain('&quot;daily_budget&quot;: 230')
    expect(html).toContain('svc_test_age…[redacted]')
    expect(html).not.toContain('agentAcme0000')
    expect(html).toContain('&lt;over the limit&gt;')
    expect(html).toContain('<span class="badge blocked">blocked by policy</span>')
    expect(html).toMatch(/<div class="totals">.*Writes attempted/)
  })

  it('bounds a long body', () => {
    const text = bounded({ campaigns: Array.from({ length: 500 }, (_, i) => ({ id: i, name: 'x'.repeat(20) })) })!
    expect(text.length).toBeLessThan(BODY_LIMIT + 60)
    expect(text).toMatch(/… \(\d+ more characters\)$/)
    expect(bounded(null)).toBeNull()
  })
})
