import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox as Sandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { decideReview, reviewPending } from './reviewer.js'

const raise = (budget: string) => ({ script: 'update_campaign_budget', args: ['--campaign-id', '1', '--daily-budget', budget] })

describe('the simulated reviewer', () => {
  it.each([
    [{ answer: 'approve' as const, within_minutes: 0 }, raise('300'), 'approve'],
    [{ answer: 'reject' as const, within_minutes: 0 }, raise('300'), 'reject'],
    [{ answer: 'never' as const, within_minutes: 0 }, raise('300'), null],
    [{ answer: 'expire' as const, within_minutes: 0 }, raise('300'), 'expire'],
    [{ answer: 'approve' as const, within_minutes: 0, reject_budget_over: 250 }, raise('300'), 'reject'],
    [{ answer: 'approve' as const, within_minutes: 0, reject_budget_over: 250 }, raise('250'), 'approve'],
    [{ answer: 'never' as const, within_minutes: 0, reject_budget_over: 250 }, raise('251'), 'reject'],
    [{ answer: 'approve' as const, within_minutes: 0, reject_budget_over: 250 }, { script: 'enable_campaign', args: ['--campaign-id', '1'] }, 'approve'],
  ])('policy %j answers %j with %s', (policy, held, answer) => {
    expect(decideReview(policy, held)?.answer ?? null).toBe(answer)
  })
})

describe('the simulated reviewer against a sandbox', () => {
  let sandbox: Sandbox
  beforeEach(async () => { sandbox = await createSandbox() })
  afterEach(async () => { await sandbox.close() })

  const agentCall = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(url, { method, headers: { authorization: `Bearer ${sandbox.keys.agent}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as Record<string, any> }
  }
  const policy = { answer: 'approve' as const, within_minutes: 0, open_links: false }

  it('an approval refused for want of a payment method closes the review as rejected, with the refusal the agent can read', async () => {
    await sandbox.control.setCredits('ws_acme', { payment_method: false })
    const paused = (await agentCall('GET', `${sandbox.apiUrl}/v1/campaigns?status=PAUSED`)).body.campaigns[0].campaign_id
    const held = await agentCall('POST', `${sandbox.baseUrl}/api/v1/tools/run`, { script_name: 'enable_campaign', platform: 'google', args: ['--campaign-id', paused] })
    expect(held.status).toBe(202)
    const actions = await reviewPending({ control: sandbox.control, workspaceId: 'ws_acme', policy, seen: new Set() })
    expect(actions).toEqual([{ audit_id: held.body.audit_id, answer: 'reject', reason: expect.stringContaining('PAYMENT_METHOD_REQUIRED') }])
    const entry = await agentCall('GET', `${sandbox.baseUrl}/api/v1/audit/${held.body.audit_id}`)
    expect(entry.body).toMatchObject({ status: 'rejected', review: { by: 'rehearsal-reviewer', action: 'reject', comment: expect.stringContaining('payment method') } })
  })

  it('as owner, it opens a connect link e-mailed by a connection request once; a link the agent started is never opened', async () => {
    const started = await agentCall('POST', `${sandbox.baseUrl}/api/v1/connections/start`, { platform: 'google' })
    const requested = await agentCall('POST', `${sandbox.baseUrl}/api/v1/connections/request`, { platform: 'google' })
    const seen = new Set<string>()
    const first = await reviewPending({ control: sandbox.control, workspaceId: 'ws_acme', policy: { ...policy, open_links: true, within_minutes: 5 }, seen })
    expect(first).toEqual([{ audit_id: requested.body.request_id, answer: 'connect', reason: expect.stringMatching(/^the owner connected conn_/) }])
    expect(await reviewPending({ control: sandbox.control, workspaceId: 'ws_acme', policy: { ...policy, open_links: true }, seen })).toEqual([])
    expect((await agentCall('GET', `${sandbox.baseUrl}/api/v1/connections/requests/${requested.body.request_id}`)).body.status).toBe('completed')
    const links = (await sandbox.control.request<{ connectLinks: Array<{ id: string; used_at: string | null }> }>('GET', '/state')).connectLinks
    expect(links.find((l) => l.id === started.body.id)?.used_at).toBeNull()
  })

  it('without open_links it leaves e-mailed links alone', async () => {
    await agentCall('POST', `${sandbox.baseUrl}/api/v1/connections/request`, { platform: 'google' })
    expect(await reviewPending({ control: sandbox.control, workspaceId: 'ws_acme', policy, seen: new Set() })).toEqual([])
  })
})
