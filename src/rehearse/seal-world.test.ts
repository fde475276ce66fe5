import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../create-sandbox.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { agentEnvironment, sealWorld, trialAdminToken } from './seal-world.js'

let sandbox: RunningSandbox
const published: Record<string, string> = {}
beforeAll(async () => {
  sandbox = await createSandbox({ adminToken: trialAdminToken() })
  Object.assign(published, sandbox.keys)
})
afterAll(async () => { await sandbox.close() })

const me = (key: string) => fetch(`${sandbox.baseUrl}/api/v1/keys`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status)

describe('a sealed trial world (issue 33 item 3)', () => {
  it('revokes every published world key and replaces it with a fresh one of the same user, workspace, scopes and name', async () => {
    type Row = { id: string; name: string; prefix: string; scopes: string[]; user_id: string; workspace_id: string | null; revoked_at: string | null }
    const before = (await sandbox.control.request<{ keys: Row[] }>('GET', '/keys')).keys
    expect(await me(published.owner)).toBe(200)
    expect(await sealWorld(sandbox.control)).toBe(before.length)
    for (const value of Object.values(published)) expect(await me(value)).toBe(401)
    const after = (await sandbox.control.request<{ keys: Row[] }>('GET', '/keys')).keys
    const live = after.filter((k) => !k.revoked_at)
    const shape = (k: Row) => JSON.stringify([k.name, k.user_id, k.workspace_id, [...k.scopes].sort()])
    expect(live.map(shape).sort()).toEqual(before.map(shape).sort())
    expect(live.some((k) => before.some((b) => b.id === k.id))).toBe(false)
  })

  it('keeps its control plane behind a token no one else holds', async () => {
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/state`)
    expect(res.status).toBe(401)
    expect(trialAdminToken()).not.toBe(trialAdminToken())
  })
})

describe('the agent\'s environment', () => {
  it('has PATH, HOME, LANG, TMPDIR and the names passed through, then its own; nothing else of the operator\'s', () => {
    const operator = { PATH: '/bin', HOME: '/home/op', LANG: 'C', AWS_SECRET_ACCESS_KEY: 'x', GITHUB_TOKEN: 'y', MY_MODEL_KEY: 'z' }
    expect(agentEnvironment({ SERVICE_API_KEY: 'k', PATH: '/own' }, ['MY_MODEL_KEY', 'NOT_SET'], operator)).toEqual({ PATH: '/own', HOME: '/home/op', LANG: 'C', MY_MODEL_KEY: 'z', SERVICE_API_KEY: 'k' })
  })
})
