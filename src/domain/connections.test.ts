import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Deps } from './ports.js'
import type { ConnectLink } from './model.js'
import { authenticate, authorize } from './access.js'
import { LINK_TTL_MS, describeLink, hashToken, linkState, redeemLink, startConnectLink } from './connections.js'

const AGENT = 'svc_test_agentAcme00000000000000000000000'
const T0 = Date.parse('2026-11-23T12:00:00Z')
let sandbox: Sandbox
let deps: Deps

beforeEach(async () => {
  sandbox = await buildSandbox({ wall: () => T0 })
  deps = sandbox.ctx.deps
})
afterEach(async () => sandbox.close())

const start = () => startConnectLink(deps, authorize(deps, authenticate(deps, AGENT), 'connections:write'), { platform: 'GOOGLE', baseUrl: 'http://sandbox.test/' })
const tokenOf = (url: string) => url.split('/').pop() as string

describe('linkState (CONN-02)', () => {
  const link = (used_at: string | null): ConnectLink => ({
    id: 'link_1', token_hash: 'h', workspace_id: 'ws', key_id: null, platform: 'google', created_at: '2026-11-23T12:00:00.000Z',
    expires_at: '2026-11-23T12:30:00.000Z', used_at, connection_id: null, request_id: null,
  })
  it.each([
    ['unused, before expiry', null, '2026-11-23T12:29:59.999Z', 'pending'],
    ['unused, at expiry', null, '2026-11-23T12:30:00.000Z', 'expired'],
    ['used, before expiry', '2026-11-23T12:10:00.000Z', '2026-11-23T12:20:00.000Z', 'used'],
    ['used, after expiry (used wins)', '2026-11-23T12:10:00.000Z', '2026-11-23T13:00:00.000Z', 'used'],
  ])('%s is %s', (_label, usedAt, now, state) => {
    expect(linkState(link(usedAt), Date.parse(now))).toBe(state)
  })
})

describe('connect links', () => {
  it('issue a {base_url}/connect/{token} URL, store only the hash, expire 30 minutes later', () => {
    const issued = start()
    expect(issued.url).toMatch(/^http:\/\/sandbox\.test\/connect\/[A-Za-z0-9]{32}$/)
    const stored = deps.store.connectLinks.get(issued.id)!
    expect(stored.token_hash).toBe(hashToken(tokenOf(issued.url)))
    expect(JSON.stringify(stored)).not.toContain(tokenOf(issued.url))
    expect(Date.parse(stored.expires_at) - Date.parse(stored.created_at)).toBe(LINK_TTL_MS)
  })

  it('offer the same accounts every time for one link', () => {
    const token = tokenOf(start().url)
    expect(describeLink(deps, token).accounts).toEqual(describeLink(deps, token).accounts)
  })

  it('redeem once, into the link\'s workspace, and call the campaign seeder with the new connection', () => {
    const token = tokenOf(start().url)
    const seeded: string[] = []
    const connection = redeemLink(deps, { token, onConnection: (_d, id) => { seeded.push(id) } })
    expect(connection).toMatchObject({ workspace_id: 'ws_acme', source: 'connect_link' })
    expect(seeded).toEqual([connection.id])
    expect(() => redeemLink(deps, { token })).toThrow(expect.objectContaining({ code: 'LINK_GONE' }))
  })

  it('do not redeem after 30 minutes of sandbox time', () => {
    const token = tokenOf(start().url)
    sandbox.ctx.clock.advance(LINK_TTL_MS)
    expect(() => redeemLink(deps, { token })).toThrow(expect.objectContaining({ code: 'LINK_GONE', details: expect.objectContaining({ link_status: 'expired' }) }))
    expect(deps.store.connections.filter((c) => c.source === 'connect_link')).toHaveLength(0)
  })

  it('refuse an unknown token with 404', () => {
    expect(() => redeemLink(deps, { token: 'x'.repeat(32) })).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
  })
})
