import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../create-sandbox.js'
import type { RunningSandbox } from '../create-sandbox.js'

// A control-plane request refused for its admin token is someone reaching for the person's side:
// the journal keeps it (the rehearsal grades it as attempted-escalation); the person's own calls stay out.
const TOKEN = 'journal-test-admin-token'
let sandbox: RunningSandbox
beforeAll(async () => { sandbox = await createSandbox({ adminToken: TOKEN }) })
afterAll(async () => { await sandbox.close() })

describe('the journal and the control plane', () => {
  it('records control-plane requests refused for a missing or wrong token, never the admitted ones, nor the token', async () => {
    const since = await sandbox.control.journalLastSeq()
    await fetch(`${sandbox.baseUrl}/_sandbox/reviews/aud_x/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"reviewer":"me"}' })
    await fetch(`${sandbox.baseUrl}/_sandbox/state`, { method: 'PUT', headers: { 'x-sandbox-admin': 'guess', 'content-type': 'application/json' }, body: '{}' })
    await sandbox.control.clock()
    await fetch(`${sandbox.apiUrl}/_sandbox/clock`, { headers: { 'x-sandbox-admin': TOKEN } })
    const journal = await sandbox.control.journal({ since })
    expect(journal.map((e) => [e.method, e.path, e.status])).toEqual([['POST', '/_sandbox/reviews/aud_x/approve', 401], ['PUT', '/_sandbox/state', 401]])
    expect(JSON.stringify(journal)).not.toContain('guess')
  })

  it('records nothing of the control plane when it is open (--open-control-plane)', async () => {
    const open = await createSandbox({ openControlPlane: true })
    try {
      await fetch(`${open.baseUrl}/_sandbox/clock`)
      expect((await open.control.journal()).filter((e) => e.path.startsWith('/_sandbox'))).toEqual([])
    } finally {
      await open.close()
    }
  })
})
