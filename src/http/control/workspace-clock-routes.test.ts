import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../../test-support/http.js'
import { KEYS, startSandbox } from '../../test-support/http.js'

const HOUR = 3_600_000
let sb: TestSandbox

const wsClock = (id: string) => sb.base('GET', `/_sandbox/workspaces/${id}/clock`)
const changeWs = (id: string, body: unknown) => sb.base('POST', `/_sandbox/workspaces/${id}/clock`, { body })
const ms = (iso: string) => Date.parse(iso)

describe('per-workspace clocks (issue 19)', () => {
  beforeAll(async () => {
    sb = await startSandbox({ world: 'multi-workspace' })
  })
  afterAll(() => sb.close())
  beforeEach(async () => {
    await sb.control.reset('multi-workspace')
    await sb.control.freezeClock()
    await sb.control.setClock('2031-05-01T12:00:00.000Z')
  })

  it('a workspace without its own clock reads the sandbox clock', async () => {
    const view = await wsClock('ws_client_a')
    expect(view.status).toBe(200)
    expect(view.body).toEqual({ workspace_id: 'ws_client_a', own: false, now: '2031-05-01T12:00:00.000Z', frozen: true, offset_ms: 0 })
  })

  it('advance, set and freeze move one workspace only; the sandbox clock and other workspaces stay', async () => {
    const advanced = await changeWs('ws_client_a', { advance: '2h' })
    expect(advanced.body).toEqual({ workspace_id: 'ws_client_a', own: true, now: '2031-05-01T14:00:00.000Z', frozen: false, offset_ms: 2 * HOUR })
    expect((await sb.control.clock()).now).toBe('2031-05-01T12:00:00.000Z')
    expect((await wsClock('ws_client_b')).body).toMatchObject({ own: false, now: '2031-05-01T12:00:00.000Z' })
    const set = await changeWs('ws_client_b', { set: '2030-01-01T00:00:00Z', advance: '1d' })
    expect(set.body).toMatchObject({ own: true, now: '2030-01-02T00:00:00.000Z' })
    expect((await wsClock('ws_client_a')).body.now).toBe('2031-05-01T14:00:00.000Z')
  })

  it('an unfrozen workspace clock moves with the sandbox clock; a frozen one does not', async () => {
    await changeWs('ws_client_a', { advance: '1h' })
    await changeWs('ws_client_b', { freeze: true })
    await sb.control.advanceClock('3h')
    expect((await wsClock('ws_client_a')).body).toMatchObject({ now: '2031-05-01T16:00:00.000Z', offset_ms: HOUR, frozen: false })
    expect((await wsClock('ws_client_b')).body).toMatchObject({ now: '2031-05-01T12:00:00.000Z', offset_ms: -3 * HOUR, frozen: true })
    // Thawed, it keeps its reading and from then on follows the sandbox clock at that offset.
    await changeWs('ws_client_b', { freeze: false })
    await sb.control.advanceClock('1h')
    expect((await wsClock('ws_client_b')).body).toMatchObject({ now: '2031-05-01T13:00:00.000Z', offset_ms: -3 * HOUR, frozen: false })
  })

  it('DELETE releases the workspace back to the sandbox clock', async () => {
    await changeWs('ws_client_a', { advance: '5d', freeze: true })
    const released = await sb.base('DELETE', '/_sandbox/workspaces/ws_client_a/clock')
    expect(released.status).toBe(200)
    expect(released.body).toEqual({ workspace_id: 'ws_client_a', own: false, now: '2031-05-01T12:00:00.000Z', frozen: true, offset_ms: 0 })
  })

  it('a reset drops every workspace clock', async () => {
    await changeWs('ws_client_a', { advance: '1h' })
    await sb.control.reset('multi-workspace')
    expect((await wsClock('ws_client_a')).body.own).toBe(false)
  })

  it.each([
    ['GET', undefined], ['POST', { advance: '1h' }], ['DELETE', undefined],
  ])('%s on an unknown workspace is 404 NOT_FOUND and changes nothing', async (method, body) => {
    const before = await sb.stateText()
    const refused = await sb.base(method, '/_sandbox/workspaces/ws_nope/clock', { body })
    expect(refused.status).toBe(404)
    expect(refused.body).toMatchObject({ code: 'NOT_FOUND', error: expect.stringContaining('ws_nope') })
    expect(await sb.stateText()).toBe(before)
  })

  it.each([{}, { advance: '-1h' }, { advance: '1y' }, { set: 'tomorrow' }, { advance: '10000000d' }, { freeze: 1 }, { advance: '1h', until: 'x' }, '[', 'null'])(
    'refuses %j with 400 INVALID_REQUEST and leaves the clocks as they were', async (body) => {
      await changeWs('ws_client_a', { advance: '1h' })
      const before = await sb.stateText()
      const refused = await changeWs('ws_client_a', body)
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^INVALID_(REQUEST|JSON)$/) })
      expect(await sb.stateText()).toBe(before)
    })

  it('the console shows a workspace on its own clock, and counts its reviews down on that time', async () => {
    await changeWs('ws_client_a', { advance: '1h' })
    const overview = (await sb.base('GET', '/_sandbox/console/overview')).body
    const own = Object.fromEntries(overview.workspaces.map((w: { id: string; own_clock: unknown }) => [w.id, w.own_clock]))
    expect(own).toMatchObject({ ws_client_a: { now: '2031-05-01T13:00:00.000Z', frozen: false, offset_ms: HOUR }, ws_client_b: null })
    const list = (await sb.api('GET', '/v1/campaigns?limit=100&status=PAUSED', { key: KEYS.alexClientA })).body.campaigns
    await sb.base('POST', '/api/v1/tools/run', { key: KEYS.alexClientA, body: { script_name: 'enable_campaign', args: ['--campaign-id', list[0].campaign_id], platform: 'google' } })
    const queue = (await sb.base('GET', '/_sandbox/console/queue')).body
    expect(queue.entries.map((e: { workspace_id: string; clock_offset_ms: number }) => [e.workspace_id, e.clock_offset_ms])).toEqual([['ws_client_a', HOUR]])
  })

  it('lists its routes in the control-plane index', async () => {
    const index = await sb.base('GET', '/_sandbox/')
    expect(index.body.routes).toEqual(expect.arrayContaining(['GET /_sandbox/workspaces/:id/clock', 'POST /_sandbox/workspaces/:id/clock', 'DELETE /_sandbox/workspaces/:id/clock']))
  })
})

describe('workspace clocks persist with the state', () => {
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('a workspace clock survives a restart on the same state file; a released one stays released', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ws-clock-'))
    const state = join(dir, 'state.json')
    sb = await startSandbox({ state, world: 'multi-workspace' })
    await changeWs('ws_client_a', { set: '2040-02-02T02:02:02Z', freeze: true })
    await changeWs('ws_client_b', { advance: '1h' })
    await sb.base('DELETE', '/_sandbox/workspaces/ws_client_b/clock')
    await sb.close()
    sb = await startSandbox({ state })
    try {
      expect((await wsClock('ws_client_a')).body).toMatchObject({ own: true, frozen: true, now: '2040-02-02T02:02:02.000Z' })
      expect((await wsClock('ws_client_b')).body.own).toBe(false)
    } finally {
      await sb.close()
    }
  })
})

describe('workspace clocks in a state import', () => {
  beforeAll(async () => {
    sb = await startSandbox({ world: 'multi-workspace' })
  })
  afterAll(() => sb.close())

  it('an exported workspace clock imports back; a malformed one is 400 and changes nothing', async () => {
    await changeWs('ws_client_a', { set: '2033-03-03T03:03:03Z', freeze: true })
    const snapshot = JSON.parse(await sb.stateText())
    await sb.base('DELETE', '/_sandbox/workspaces/ws_client_a/clock')
    expect((await sb.base('PUT', '/_sandbox/state', { body: snapshot })).status).toBe(200)
    expect((await wsClock('ws_client_a')).body).toMatchObject({ own: true, now: '2033-03-03T03:03:03.000Z' })
    const before = await sb.stateText()
    for (const clock of [{ offset_ms: 'soon', frozen_at: null }, { offset_ms: 0, frozen_at: -1 }, { offset_ms: 0 }]) {
      const bad = { ...snapshot, workspaces: snapshot.workspaces.map((w: { id: string }) => (w.id === 'ws_client_a' ? { ...w, clock } : w)) }
      const refused = await sb.base('PUT', '/_sandbox/state', { body: bad })
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('INVALID_REQUEST')
    }
    expect(await sb.stateText()).toBe(before)
  })
})

describe('workspace clocks at the edge of time', () => {
  beforeAll(async () => {
    sb = await startSandbox({ world: 'multi-workspace' })
  })
  afterAll(() => sb.close())

  it('a workspace clock ahead of the sandbox clock stops at 9999-12-31 when the sandbox clock moves on; requests still answer', async () => {
    await sb.control.freezeClock()
    await sb.control.setClock('9990-01-01T00:00:00Z')
    await changeWs('ws_client_a', { advance: '3000d' })
    await sb.control.advanceClock('1000d')
    expect((await wsClock('ws_client_a')).body.now).toBe('9999-12-31T23:59:59.999Z')
    expect((await sb.api('GET', '/v1/campaigns?limit=1', { key: KEYS.alexClientA })).status).toBe(200)
  })
})
