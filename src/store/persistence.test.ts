import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildSandbox } from '../sandbox.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { readDocumentOnDisk } from './doc-log.js'
import { TABLE_LAYOUT, TABLE_NAMES } from './layout.js'

let dir: string
let file: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-persist-'))
  file = join(dir, 'state.json')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('persistence across a restart', () => {
  it('resumes keys, users, memberships and the clock written through HTTP', async () => {
    const first = await startSandbox({ state: file })
    const child = await first.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'survivor', scopes: ['reporting:read'] } })
    expect(child.status).toBe(201)
    const revoked = await first.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'revoked', scopes: ['reporting:read'] } })
    await first.base('DELETE', `/api/v1/keys/${revoked.body.id}`, { key: KEYS.owner })
    const user = await first.base('POST', '/_sandbox/users', { body: { email: 'new@acme.test', name: 'New' } })
    await first.base('POST', '/_sandbox/memberships', { body: { user_id: user.body.user.id, workspace_id: 'ws_acme' } })
    await first.control.freezeClock()
    await first.control.setClock('2030-01-01T00:00:00.000Z')
    await first.close()

    const again = await buildSandbox({ state: file })
    expect(again.resumed).toBe(true)
    await again.close()

    const second = await startSandbox({ state: file })
    expect((await second.api('GET', '/v1/me', { key: child.body.key })).body.key.name).toBe('survivor')
    expect((await second.api('GET', '/v1/me', { key: revoked.body.key })).status).toBe(401)
    expect((await second.api('GET', '/v1/me', { key: user.body.signup_key.key })).body.workspace.id).toBe('ws_acme')
    expect(await second.control.clock()).toMatchObject({ now: '2030-01-01T00:00:00.000Z', frozen: true })
    await second.close()
  })

  it('answers concurrent writes only once each is in the state file (group commit)', async () => {
    const sb = await startSandbox({ state: file })
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      sb.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: `k${i}`, scopes: ['tools:read'] } })))
    // Read the files while the sandbox still runs: acknowledged means on disk, not "on disk at close".
    const docTables = TABLE_NAMES.filter((n) => TABLE_LAYOUT[n] === 'doc')
    const onDisk = (readDocumentOnDisk(file, docTables).keys as Array<{ id: string }>).map((k) => k.id)
    for (const answer of created) {
      expect(answer.status).toBe(201)
      expect(onDisk).toContain(answer.body.id)
    }
    await sb.close()
  })

  it('starts a fresh world when the state file does not exist yet', async () => {
    const sandbox = await buildSandbox({ state: file })
    expect(sandbox.resumed).toBe(false)
    await sandbox.close()
    expect(JSON.parse(await readFile(file, 'utf8')).meta.world).toBe('default')
  })
})

describe('secrets (KEY-02)', () => {
  it('never writes a key value to the state file, its log, the journal, the journal file or the logs', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) })
    const journalFile = join(dir, 'journal.jsonl')
    const sb = await startSandbox({ state: file, logger, journalFile })
    const values: string[] = Object.values(KEYS).slice(0, 5)

    const child = await sb.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'child', scopes: ['reporting:read'] } })
    const minted = await sb.base('POST', '/_sandbox/keys', { body: { user_id: 'usr_rey', workspace_id: 'ws_acme', scopes: ['tools:read'] } })
    const signup = await sb.base('POST', '/_sandbox/users', { body: { email: 'sam@acme.test', name: 'Sam' } })
    values.push(child.body.key, minted.body.key, signup.body.signup_key.key)
    for (const value of values) expect(value).toMatch(/^svc_test_/)

    // Use every key in every way a client might leak it: headers, path, query, body.
    for (const value of values) {
      await sb.api('GET', '/v1/me', { key: value })
      await sb.api('GET', `/v1/me?api_key=${value}`, { headers: { 'x-service-key': value } })
      await sb.base('GET', '/api/v1/keys', { headers: { 'x-api-key': value, 'x-service-key': value } })
      await sb.base('DELETE', `/api/v1/keys/${value}`, { key: KEYS.owner })
      await sb.base('POST', '/api/v1/keys', { key: value, body: { name: value, scopes: ['nope'] } })
    }
    const journal = JSON.stringify(await sb.control.journal({ limit: 10_000 }))
    await sb.close()

    const texts = {
      state: await readFile(file, 'utf8'),
      log: await readFile(`${file}.log`, 'utf8').catch(() => ''),
      journal,
      journalFile: await readFile(journalFile, 'utf8'),
      logs: lines.join(''),
    }
    expect(texts.journal).toContain('svc_test_own…[redacted]')
    expect(texts.logs).toContain('"msg":"exchange"')
    expect(texts.state).toContain('"prefix":"svc_test_own"')
    for (const [where, text] of Object.entries(texts)) {
      for (const value of values) expect(text.includes(value), `${where} contains ${value.slice(0, 12)}…`).toBe(false)
    }
  })
})
