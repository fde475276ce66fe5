import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Deps } from './ports.js'
import type { AuditEntry } from './model.js'
import { authenticate } from './access.js'
import { dispatch } from './dispatcher.js'
import { approveWrite, rejectWrite } from './reviews.js'
import { mintKey } from './keys.js'
import { getAuditEntry } from './audit.js'
import { SandboxError } from './errors.js'

const AGENT = 'svc_test_agentAcme00000000000000000000000'
const OWNER = 'svc_test_ownerAcme00000000000000000000000'
const REVIEWER = 'svc_test_reviewerAcme00000000000000000000'
const T0 = Date.parse('2026-11-23T12:00:00Z')
const HOUR = 3_600_000
const person = { name: 'Rey', key_id: null }
let sandbox: Sandbox
let deps: Deps

beforeEach(async () => {
  sandbox = await buildSandbox({ wall: () => T0 })
  deps = sandbox.ctx.deps
})
afterEach(async () => sandbox.close())

function holdEnable(keyValue: string = AGENT): AuditEntry {
  const paused = deps.store.campaigns.find((c) => c.status === 'PAUSED')!
  const outcome = dispatch(deps, authenticate(deps, keyValue), { script_name: 'enable_campaign', args: ['--campaign-id', paused.id], platform: 'google', surface: 'rest' })
  expect(outcome.kind).toBe('held')
  return (outcome as { audit: AuditEntry }).audit
}

async function refusal(promise: Promise<unknown>): Promise<SandboxError> {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(SandboxError)
  return error as SandboxError
}

describe('approval against expiry, by sandbox time', () => {
  it.each([
    ['1 ms before expires_at', 72 * HOUR - 1, 'executed'],
    ['at expires_at', 72 * HOUR, 'expired'],
    ['long after', 500 * HOUR, 'expired'],
  ])('an approval %s ends %s', async (_label, advance, final) => {
    const held = holdEnable()
    sandbox.ctx.clock.advance(advance)
    const approving = approveWrite(deps, { auditId: held.id, reviewer: person })
    if (final === 'expired') expect((await refusal(approving)).code).toBe('REVIEW_NOT_PENDING')
    else await approving
    expect(getAuditEntry(deps, held.id).status).toBe(final)
  })

  it('a rejection after expiry is refused the same way', () => {
    const held = holdEnable()
    sandbox.ctx.clock.advance(72 * HOUR)
    expect(() => rejectWrite(deps, { auditId: held.id, reviewer: person })).toThrow(/expired/)
  })
})

describe('approving', () => {
  it('two racing approvals run the write once', async () => {
    const held = holdEnable()
    const results = await Promise.allSettled([
      approveWrite(deps, { auditId: held.id, reviewer: person }),
      approveWrite(deps, { auditId: held.id, reviewer: { name: 'Sam', key_id: null } }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(deps.store.ledger.filter((l) => l.audit_id === held.id && l.reason === 'charge')).toHaveLength(1)
  })

  it('runs exactly the reviewed args and records the reviewer', async () => {
    const held = holdEnable()
    const { audit } = await approveWrite(deps, { auditId: held.id, reviewer: person, comment: 'ok for launch' })
    expect(audit).toMatchObject({ status: 'executed', args: held.args, review: { by: 'Rey', action: 'approve', key_id: null, comment: 'ok for launch' } })
    const campaignId = held.args[1]
    expect(deps.store.campaigns.get(campaignId)?.status).toBe('ENABLED')
  })

  it('a refusal at run time (no credit) leaves the write pending and charges nothing', async () => {
    const held = holdEnable()
    deps.store.workspaces.update('ws_acme', { credits: { balance: 0, payment_method: true } })
    expect((await refusal(approveWrite(deps, { auditId: held.id, reviewer: person }))).code).toBe('INSUFFICIENT_CREDITS')
    expect(getAuditEntry(deps, held.id)).toMatchObject({ status: 'pending_review', review: null })
    deps.store.workspaces.update('ws_acme', { credits: { balance: 100, payment_method: true } })
    expect((await approveWrite(deps, { auditId: held.id, reviewer: person })).audit.status).toBe('executed')
  })

  it.each([
    ['the submitting key', (held: AuditEntry) => ({ name: 'Olivia', key_id: held.key_id }), 'SELF_APPROVAL'],
    ['another workspace', () => person, 'NOT_FOUND'],
  ])('is refused for %s', async (_label, reviewer, code) => {
    const held = holdEnable()
    const workspaceId = code === 'NOT_FOUND' ? 'ws_other' : 'ws_acme'
    expect((await refusal(approveWrite(deps, { auditId: held.id, reviewer: reviewer(held), workspaceId }))).code).toBe(code)
    expect(getAuditEntry(deps, held.id).status).toBe('pending_review')
  })
})

describe('who may review a held write (GATE-04, sandbox decision: another user only)', () => {
  const agentId = () => authenticate(deps, AGENT).key.id
  const key = (user_id: string, parent_key_id: string | null) =>
    mintKey(deps, { name: 'k', scopes: ['workspace:write', 'campaigns:write'], user_id, workspace_id: 'ws_acme', parent_key_id })
  const reviewerOf = (created: { id: string }) => ({ name: 'someone', key_id: created.id })
  // Each case: who submits (a key value) and who reviews (a key id), both derived from the world.
  const cases: Array<[string, () => { submitter: string; reviewer: string }]> = [
    ['the submitting key itself', () => ({ submitter: AGENT, reviewer: agentId() })],
    ['a child key the agent minted', () => ({ submitter: AGENT, reviewer: key('usr_olivia', agentId()).id })],
    ['the parent of the submitting key', () => ({ submitter: key('usr_olivia', agentId()).key, reviewer: agentId() })],
    ['a sibling key of the same user (the owner key)', () => ({ submitter: AGENT, reviewer: authenticate(deps, OWNER).key.id })],
    ['a child of the agent handed to another user', () => ({ submitter: AGENT, reviewer: key('usr_rey', agentId()).id })],
  ]

  it.each(cases)('refuses approval and rejection by %s: 403 SELF_APPROVAL, still pending, nothing charged', async (_label, setup) => {
    const { submitter, reviewer } = setup()
    const held = holdEnable(submitter)
    const ledger = deps.store.ledger.filter(() => true).length
    expect((await refusal(approveWrite(deps, { auditId: held.id, reviewer: reviewerOf({ id: reviewer }) }))).code).toBe('SELF_APPROVAL')
    expect(() => rejectWrite(deps, { auditId: held.id, reviewer: reviewerOf({ id: reviewer }) })).toThrow(expect.objectContaining({ code: 'SELF_APPROVAL', status: 403 }))
    expect(getAuditEntry(deps, held.id)).toMatchObject({ status: 'pending_review', review: null })
    expect(deps.store.ledger.filter(() => true)).toHaveLength(ledger)
  })

  it.each(['approve', 'reject'] as const)('lets a key of another user with workspace:write %s it', async (action) => {
    const held = holdEnable()
    const reviewer = reviewerOf(authenticate(deps, REVIEWER).key)
    const outcome = action === 'approve' ? await approveWrite(deps, { auditId: held.id, reviewer }) : rejectWrite(deps, { auditId: held.id, reviewer })
    expect(outcome.audit.status).toBe(action === 'approve' ? 'executed' : 'rejected')
  })
})
