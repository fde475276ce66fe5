import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEYS } from '../test-support/http.js'
import { buildSandbox } from '../sandbox.js'
import type { Sandbox } from '../sandbox.js'
import { authenticateRequest } from './credential-hints.js'
import { authenticate, resolveWorkspace } from '../domain/access.js'
import { revokeKey } from '../domain/keys.js'

describe('authenticateRequest on one keep-alive connection (AUTH-03, KEY-08)', () => {
  let built: Sandbox
  beforeAll(async () => {
    built = await buildSandbox()
  })
  afterAll(async () => {
    await built.close()
  })
  const on = (socket: object, key: string) => ({ headers: { authorization: `Bearer ${key}` }, socket })
  const keyIdOf = (key: string) => authenticate(built.ctx.deps, key).key.id

  it('names the key each request sends, when one connection switches keys and back', () => {
    const socket = {}
    const sent = [KEYS.owner, KEYS.owner, KEYS.agent, KEYS.owner, KEYS.reporting, KEYS.reporting, KEYS.agent]
    expect(sent.map((key) => authenticateRequest(built.ctx.deps, on(socket, key), 'tools').key.id)).toEqual(sent.map(keyIdOf))
  })

  it('refuses a key unknown to the sandbox on a connection whose last key was valid', () => {
    const socket = {}
    authenticateRequest(built.ctx.deps, on(socket, KEYS.owner), 'tools')
    const unknown = `${KEYS.owner.slice(0, -1)}1`
    expect(() => authenticateRequest(built.ctx.deps, on(socket, unknown), 'tools')).toThrow(/not valid/)
  })

  it('refuses a key revoked after the same connection used it', () => {
    const socket = {}
    expect(authenticateRequest(built.ctx.deps, on(socket, KEYS.reporting), 'tools').key.id).toBe(keyIdOf(KEYS.reporting))
    const owner = resolveWorkspace(built.ctx.deps, authenticate(built.ctx.deps, KEYS.owner))
    revokeKey(built.ctx.deps, owner, keyIdOf(KEYS.reporting))
    expect(() => authenticateRequest(built.ctx.deps, on(socket, KEYS.reporting), 'tools')).toThrow(/revoked/)
  })

  it('still says why no key was read when the connection sent one before', () => {
    const socket = {}
    authenticateRequest(built.ctx.deps, on(socket, KEYS.owner), 'tools')
    expect(() => authenticateRequest(built.ctx.deps, { headers: { authorization: KEYS.owner }, socket }, 'tools')).toThrow(/no Bearer key/)
  })
})
