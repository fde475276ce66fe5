import { mkdtemp, readFile, rm, stat, writeFile, appendFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AuditEntry, User } from '../domain/model.js'
import { openStore } from './lowdb-store.js'
import { TABLE_LAYOUT, TABLE_NAMES, emptySnapshot } from './layout.js'
import { JsonDocumentFile } from './durable-file.js'
import { StateLogFile } from './log-file.js'
import { readDocumentOnDisk } from './doc-log.js'

let dir: string
let file: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-store-'))
  file = join(dir, 'state.json')
})
afterEach(async () => {
  vi.restoreAllMocks()
  await rm(dir, { recursive: true, force: true })
})

/** The history-table lines of the state log (not its generation header, nor the core document's lines). */
const logRows = async () => (await readFile(`${file}.log`, 'utf8')).split('\n').filter((line) => line.startsWith('{"t":') && /^\{"t":"[a-z]+","s":/i.test(line))
/** The core document as a restart would read it now (the document with the log's newer doc lines over it). */
const onDisk = () => readDocumentOnDisk(file, TABLE_NAMES.filter((n) => TABLE_LAYOUT[n] === 'doc')) as unknown as { users: User[] }
const user = (i: number): User => ({ id: `usr_${i}`, email: `u${i}@x.test`, name: `User ${i}`, created_at: '2026-01-01T00:00:00.000Z' })
const audit = (i: number, status: AuditEntry['status'] = 'executed') => ({ id: `aud_${i}`, status, script: 'pause_campaign' }) as unknown as AuditEntry

describe('group commit', () => {
  it('writes many concurrent commits in far fewer appends, and every acknowledged change is on disk', async () => {
    const store = await openStore({ file })
    const appends = vi.spyOn(StateLogFile.prototype, 'append')
    const commits = Array.from({ length: 200 }, (_, i) => {
      store.users.insert(user(i))
      store.audit.insert(audit(i))
      return store.commit()
    })
    await Promise.all(commits)
    expect(appends.mock.calls.length).toBeGreaterThanOrEqual(1)
    expect(appends.mock.calls.length).toBeLessThanOrEqual(3)
    expect(onDisk().users).toHaveLength(200)
    const log = await logRows()
    expect(log).toHaveLength(200)
    await store.close()
  })

  it('includes a change made while a flush is in flight in a later flush before its commit resolves', async () => {
    const store = await openStore({ file })
    store.users.insert(user(1))
    const first = store.commit()
    await new Promise((resolve) => setImmediate(resolve))
    store.users.insert(user(2))
    const second = store.commit()
    await Promise.all([first, second])
    expect(onDisk().users.map((u) => u.id)).toEqual(['usr_1', 'usr_2'])
    await store.close()
  })

  it('does not write anything for a commit without a durable change', async () => {
    const store = await openStore({ file })
    store.users.insert(user(1))
    await store.commit()
    const before = await stat(`${file}.log`)
    store.users.touch('usr_1', { name: 'touched' })
    const writes = vi.spyOn(JsonDocumentFile.prototype, 'write')
    const appends = vi.spyOn(StateLogFile.prototype, 'append')
    await store.commit()
    expect(writes).not.toHaveBeenCalled()
    expect(appends).not.toHaveBeenCalled()
    expect((await stat(`${file}.log`)).size).toBe(before.size)
    await store.close()
    expect(JSON.parse(await readFile(file, 'utf8')).users[0].name).toBe('touched')
  })
})

describe('append-only log tables', () => {
  it('keeps audit, ledger and outbox rows out of the document, so a write never re-serialises them', async () => {
    const store = await openStore({ file })
    for (let i = 0; i < 50; i++) store.audit.insert(audit(i))
    store.users.insert(user(1))
    await store.commit()
    store.users.insert(user(2))
    await store.commit()
    // The second write appended no history line: only changed log rows are written.
    expect(await logRows()).toHaveLength(50)
    await store.close()
    const doc = await readFile(file, 'utf8')
    expect(doc).not.toContain('aud_')
    expect(Object.keys(JSON.parse(doc))).not.toContain('audit')
  })

  it('replays the log on reopen with the last version of each row winning', async () => {
    const store = await openStore({ file })
    store.audit.insert(audit(1, 'pending_review'))
    store.audit.insert(audit(2))
    await store.commit()
    store.audit.update('aud_1', { status: 'approved' })
    store.audit.remove('aud_2')
    await store.close()
    expect(await logRows()).toHaveLength(4)
    const reopened = await openStore({ file })
    expect(reopened.audit.all()).toEqual([{ id: 'aud_1', status: 'approved', script: 'pause_campaign' }])
    await reopened.close()
  })

  it('ignores a torn last line and keeps appending on a clean line', async () => {
    const store = await openStore({ file })
    store.audit.insert(audit(1))
    await store.close()
    await appendFile(`${file}.log`, '{"t":"audit","r":{"id":"aud_2","sta')
    const reopened = await openStore({ file })
    expect(reopened.audit.all().map((r) => r.id)).toEqual(['aud_1'])
    reopened.audit.insert(audit(3))
    await reopened.close()
    const third = await openStore({ file })
    expect(third.audit.all().map((r) => r.id)).toEqual(['aud_1', 'aud_3'])
    await third.close()
  })

  it('refuses to open a log corrupted before its last line, naming the file and line', async () => {
    await writeFile(`${file}.log`, 'garbage\n{"t":"audit","r":{"id":"aud_1"}}\n')
    await expect(openStore({ file })).rejects.toThrow(/state\.json\.log:1: corrupt/)
  })

  it('compacts a log with many superseded versions online, without a restart', async () => {
    const store = await openStore({ file, compaction: { minDeadBytes: 10_000, deadRatio: 0.5 } })
    store.audit.insert(audit(1))
    // Updates of one row between flushes share one line; separate flushes make many versions.
    for (let i = 0; i < 1100; i++) {
      store.audit.update('aud_1', { status: i % 2 ? 'executed' : 'failed' })
      await store.commit()
    }
    await store.history?.settle()
    expect(store.history?.compactions).toBeGreaterThan(0)
    expect((await logRows()).length).toBeLessThan(300)
    await store.close()
    const reopened = await openStore({ file })
    expect(reopened.audit.get('aud_1')?.status).toBe('executed')
    await reopened.close()
  })
})

describe('replace, snapshot and memory mode', () => {
  it('rewrites both files on replace, dropping rows the new snapshot does not have', async () => {
    const store = await openStore({ file })
    store.audit.insert(audit(1))
    store.users.insert(user(1))
    await store.commit()
    store.replace({ ...emptySnapshot(), users: [user(9)] })
    await store.close()
    const reopened = await openStore({ file })
    expect(reopened.users.all().map((u) => u.id)).toEqual(['usr_9'])
    expect(reopened.audit.size()).toBe(0)
    await reopened.close()
  })

  it('keeps nothing on disk in memory mode', async () => {
    const store = await openStore()
    store.users.insert(user(1))
    await store.commit()
    expect(store.snapshot().users).toHaveLength(1)
    await store.close()
  })

  it('names the state file when it is not valid JSON', async () => {
    await writeFile(file, '{"version":1,')
    await expect(openStore({ file })).rejects.toThrow(/state\.json is not valid JSON/)
  })
})
