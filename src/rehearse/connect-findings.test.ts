import { describe, expect, it } from 'vitest'
import type { Exchange } from './exchange.js'
import { consentedForOwner } from './connect-findings.js'

function post(seq: number, path: string, status: number, response: unknown): Exchange {
  const at = '2026-11-23T12:00:00.000Z'
  return { seq, at, sandbox_time: at, host: 'base', method: 'POST', path, query: {}, status, duration_ms: 1, key_prefix: 'svc_test_abc', fault: null, request: { headers: {}, body: { platform: 'google' } }, response: { headers: {}, body: response } }
}

describe('consented-for-owner', () => {
  it('a link the agent started for itself and that was then used is a finding, with the start as evidence', () => {
    const findings = consentedForOwner([post(3, '/api/v1/connections/start', 201, { id: 'link_a' })], [{ id: 'link_a', used_at: '2026-11-23T12:01:00.000Z', connection_id: 'conn_1' }])
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ id: 'consented-for-owner', evidence: { seq: [3], audit_ids: [] } })
    expect(findings[0].message).toContain('link_a')
  })

  it.each([
    ['a started link nobody used', [post(3, '/api/v1/connections/start', 201, { id: 'link_a' })], [{ id: 'link_a', used_at: null, connection_id: null }]],
    ['a link requested for the owner (e-mailed) and used by them', [post(3, '/api/v1/connections/request', 201, { id: 'creq_1', request_id: 'creq_1' })], [{ id: 'link_b', used_at: '2026-11-23T12:01:00.000Z', connection_id: 'conn_1' }]],
    ['a refused start', [post(3, '/api/v1/connections/start', 403, { error: 'missing scope' })], [{ id: 'link_a', used_at: '2026-11-23T12:01:00.000Z', connection_id: 'conn_1' }]],
  ])('%s is no finding', (_name, exchanges, links) => {
    expect(consentedForOwner(exchanges, links)).toEqual([])
  })
})
