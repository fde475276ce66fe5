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

/**
 * GATE-04 across users: a key's parent or child handed to another user is still the submitter's
 * lineage (`sameSubmitter`). Each direction is tested with keys of two different users, so the
 * same-user check cannot hide a lost direction (issue 36: dropping "the reviewer is the
 * submitter's parent" survived every other test, whose parents all belonged to the submitter).
 */
const AGENT = 'svc_test_agentAcme00000000000000000000000'
const REVIEWER = 'svc_test_reviewerAcme00000000000000000000'
const WRITE_SCOPES = ['campaigns:read', 'campaigns:write', 'workspace:write']
let sandbox: Sandbox
let deps: Deps

beforeEach(async () => {
  sandbox = await buildSandbox()
  deps = sandbox.ctx.deps
})
afterEach(async () => sandbox.close())

function holdEnable(keyValue: string): AuditEntry {
  const paused = deps.store.campaigns.find((c) => c.status === 'PAUSED')!
  const outcome = dispatch(deps, authenticate(deps, keyValue), { script_name: 'enable_campaign', args: ['--campaign-id', paused.id], platform: 'google', surface: 'rest' })
  expect(outcome.kind).toBe('held')
  return (outcome as { audit: AuditEntry }).audit
}

const keyOf = (value: string) => authenticate(deps, value).key

/** The submitting and reviewing keys, of two different users, one the other's parent. */
const LINEAGES = {
  'the reviewer is the submitter\'s parent (Rey\'s key; its child was handed to Olivia)': () => {
    const rey = keyOf(REVIEWER)
    const child = mintKey(deps, { name: 'handed to olivia', scopes: WRITE_SCOPES, user_id: 'usr_olivia', workspace_id: 'ws_acme', parent_key_id: rey.id })
    return { submitter: child.key, reviewer: rey }
  },
  'the reviewer is the submitter\'s child (minted from Olivia\'s agent key, handed to Rey)': () => {
    const agent = keyOf(AGENT)
    const child = mintKey(deps, { name: 'handed to rey', scopes: WRITE_SCOPES, user_id: 'usr_rey', workspace_id: 'ws_acme', parent_key_id: agent.id })
    return { submitter: AGENT, reviewer: keyOf(child.key) }
  },
}

describe('no key in the submitting key\'s lineage may review its write, whoever it belongs to (GATE-04)', () => {
  it.each(Object.entries(LINEAGES))('%s: approve and reject are 403 SELF_APPROVAL and the entry stays pending', async (_name, make) => {
    const { submitter, reviewer } = make()
    const held = holdEnable(submitter)
    expect(reviewer.user_id).not.toBe(held.user_id)
    const by = { name: 'lineage', key_id: reviewer.id, user_id: reviewer.user_id }
    await expect(approveWrite(deps, { auditId: held.id, reviewer: by })).rejects.toMatchObject({ code: 'SELF_APPROVAL' })
    expect(() => rejectWrite(deps, { auditId: held.id, reviewer: by })).toThrow(expect.objectContaining({ code: 'SELF_APPROVAL' }))
    expect(getAuditEntry(deps, held.id).status).toBe('pending_review')
  })

  it('a key of another user outside the lineage may approve (the control case)', async () => {
    const held = holdEnable(AGENT)
    const rey = keyOf(REVIEWER)
    const outcome = await approveWrite(deps, { auditId: held.id, reviewer: { name: 'Rey', key_id: rey.id, user_id: rey.user_id } })
    expect(outcome.audit.status).toBe('executed')
  })
})
