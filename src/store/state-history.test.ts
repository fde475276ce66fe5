import { rm, truncate, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StateHistoryMissingError } from './state-history.js'
import { KEYS, startSandbox } from '../test-support/http.js'

let dir: string
let state: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-history-'))
  state = join(dir, 'state.json')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A state file with one key created after the world (an audit-free write) and one held write (an audit entry). */
async function stateWithHistory(): Promise<void> {
  const sb = await startSandbox({ state })
  expect((await sb.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'kept', scopes: ['tools:read'] } })).status).toBe(201)
  const id = (await sb.api('GET', '/v1/campaigns?limit=1', { key: KEYS.owner })).body.campaigns[0].campaign_id as string
  const held = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'enable_campaign', args: ['--campaign-id', id], platform: 'google' } })
  expect(held.status).toBe(202)
  await sb.close()
}

const refusal = () => startSandbox({ state }).then(async (sb) => {
  await sb.close()
  return null
}, (error: unknown) => error)

describe('a state file whose history is gone refuses to start (issue 36)', () => {
  it('refuses a document whose log was deleted, naming the file and the way out', async () => {
    await stateWithHistory()
    await rm(`${state}.log`)
    await rm(`${state}.log.ckpt`, { force: true })
    const error = await refusal()
    expect(error).toBeInstanceOf(StateHistoryMissingError)
    expect(error).toMatchObject({ code: 'STATE_HISTORY_MISSING', file: state })
    expect((error as Error).message).toBe(`State file ${state} has lost its history: ${state}.log is missing, but the document was saved after ${(error as Error).message.match(/after (\d+)/)![1]} logged group commits. Restore it, or pass --reset to start the world afresh (dropping what ${state} holds).`)
    expect((error as Error).message).not.toContain('\n')
  })

  it('refuses a log deleted while its checkpoint stays, and a log emptied', async () => {
    await stateWithHistory()
    await rm(`${state}.log`)
    expect(String(await refusal())).toMatch(/state\.json\.log is missing, but its checkpoint covers \d+ bytes of it/)
  })

  it('refuses a log shorter than its checkpoint says it was', async () => {
    await stateWithHistory()
    const size = (await stat(`${state}.log`)).size
    await truncate(`${state}.log`, Math.floor(size / 2))
    expect(String(await refusal())).toMatch(new RegExp(`holds ${Math.floor(size / 2)} bytes, but its checkpoint covers ${size}`))
  })

  it('starts afresh over a lost history only when asked (reset), and the refusal left the files as they were', async () => {
    await stateWithHistory()
    await truncate(`${state}.log`, 0)
    expect(String(await refusal())).toMatch(/state\.json\.log is empty/)
    const sb = await startSandbox({ state, reset: true })
    try {
      const names = ((await sb.base('GET', '/api/v1/keys', { key: KEYS.owner })).body.keys as Array<{ name: string }>).map((k) => k.name)
      expect(names).not.toContain('kept')
      const audit = await sb.base('GET', '/api/v1/audit', { key: KEYS.owner })
      expect(audit.status).toBe(200)
      expect(audit.body.entries).toEqual([])
    } finally {
      await sb.close()
    }
    // Started afresh, the file resumes normally from then on.
    const again = await startSandbox({ state })
    await again.close()
  })

  it('resumes a state whose log is intact, and a new state file with none', async () => {
    await stateWithHistory()
    expect(await refusal()).toBeNull()
    // The held write's audit entry came back with its log.
    const sb = await startSandbox({ state })
    expect((await sb.base('GET', '/api/v1/audit', { key: KEYS.owner })).body.entries).toHaveLength(1)
    await sb.close()
    await rm(dir, { recursive: true, force: true })
    expect(await refusal()).toBeNull()
  })
})
