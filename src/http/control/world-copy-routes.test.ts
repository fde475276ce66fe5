import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEYS, startSandbox } from '../../test-support/http.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())

type Row = { campaign_name: string; status: string; daily_budget: number; campaign_id: string }
const campaigns = async (key: string) => (await sb.api('GET', '/v1/campaigns?limit=100', { key })).body.campaigns as Row[]
const shape = (rows: Row[]) => rows.map(({ campaign_name, status, daily_budget }) => ({ campaign_name, status, daily_budget }))

describe('POST /_sandbox/world-copies (issue 19)', () => {
  it('seeds an independent copy: suffixed ids, fresh keys behind the world prefixes, the same campaigns under new ids, own clocks', async () => {
    const copy = await sb.base('POST', '/_sandbox/world-copies', { body: { world: 'default' } })
    expect(copy.status).toBe(201)
    const { suffix, ids, workspaces, keys } = copy.body
    expect(ids).toEqual({ usr_olivia: `usr_olivia_${suffix}`, usr_rey: `usr_rey_${suffix}`, ws_acme: `ws_acme_${suffix}`, conn_google_acme: `conn_google_acme_${suffix}` })
    expect(workspaces).toEqual([`ws_acme_${suffix}`])
    const agent = keys.find((k: { name: string }) => k.name === 'agent')
    expect(agent.value).not.toBe(KEYS.agent)
    expect(agent.value.slice(0, 12)).toBe(KEYS.agent.slice(0, 12))
    expect(agent).toMatchObject({ workspace_id: `ws_acme_${suffix}`, user_id: `usr_olivia_${suffix}` })
    const [mine, theirs] = [await campaigns(agent.value), await campaigns(KEYS.agent)]
    expect(shape(mine)).toEqual(shape(theirs))
    expect(mine.map((c) => c.campaign_id).filter((id) => theirs.some((t) => t.campaign_id === id))).toEqual([])
    expect((await sb.control.workspaceClock(`ws_acme_${suffix}`)).own).toBe(true)
    // The copy's unpinned signup key still has exactly one workspace to act in.
    const signup = keys.find((k: { name: string }) => k.name === 'signup')
    expect((await sb.api('GET', '/v1/campaigns?limit=1', { key: signup.value })).status).toBe(200)
  })

  it('without clocks the copy reads the sandbox clock; two copies never share ids', async () => {
    const [a, b] = [(await sb.base('POST', '/_sandbox/world-copies', { body: { clocks: false } })).body, (await sb.base('POST', '/_sandbox/world-copies', { body: {} })).body]
    expect(a.suffix).not.toBe(b.suffix)
    expect((await sb.control.workspaceClock(a.workspaces[0])).own).toBe(false)
  })

  it.each([[{ world: 'nope' }], [{ world: '../etc/passwd' }], [{ worlds: 'default' }], [{ clocks: 'yes' }]])('refuses %j with 400 and seeds nothing', async (body) => {
    const before = await sb.stateText()
    const refused = await sb.base('POST', '/_sandbox/world-copies', { body })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', error: expect.any(String) })
    expect(await sb.stateText()).toBe(before)
  })
})

describe('DELETE /_sandbox/world-copies/{suffix} (issue 19)', () => {
  it('removes the copy\'s users, workspaces, keys and campaigns and leaves the world and other copies as they were', async () => {
    const [a, b] = [(await sb.base('POST', '/_sandbox/world-copies', { body: {} })).body, (await sb.base('POST', '/_sandbox/world-copies', { body: {} })).body]
    const agentA = a.keys.find((k: { name: string }) => k.name === 'agent').value
    const agentB = b.keys.find((k: { name: string }) => k.name === 'agent').value
    const before = (await campaigns(KEYS.agent)).map((c) => c.campaign_id)
    const gone = await sb.base('DELETE', `/_sandbox/world-copies/${a.suffix}`)
    expect(gone.status).toBe(200)
    expect(gone.body.removed).toMatchObject({ users: 2, workspaces: 1, connections: 1, keys: a.keys.length })
    expect(gone.body.removed.campaigns).toBeGreaterThan(0)
    expect((await sb.api('GET', '/v1/campaigns', { key: agentA })).status).toBe(401)
    expect((await sb.base('GET', `/_sandbox/workspaces/${a.workspaces[0]}/clock`)).status).toBe(404)
    expect((await campaigns(KEYS.agent)).map((c) => c.campaign_id)).toEqual(before)
    expect((await sb.api('GET', '/v1/campaigns', { key: agentB })).status).toBe(200)
    expect((await sb.base('DELETE', `/_sandbox/world-copies/${a.suffix}`)).status).toBe(404)
  })

  it.each([['acme'], ['nope'], ['a%2Fb'], ['x'.repeat(65)]])('answers 404 for %s, which names no copy, and changes nothing', async (suffix) => {
    const before = await sb.stateText()
    const refused = await sb.base('DELETE', `/_sandbox/world-copies/${suffix}`)
    expect(refused.status).toBe(404)
    expect(refused.body).toMatchObject({ code: 'NOT_FOUND', error: expect.any(String) })
    expect(await sb.stateText()).toBe(before)
  })
})
