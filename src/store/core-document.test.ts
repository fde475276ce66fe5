import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { AuditEntry, User } from '../domain/model.js'
import type { FileStore } from './lowdb-store.js'
import { stateFiles } from '../test-support/state-files.js'
import { emptySnapshot } from './layout.js'
import { JsonDocumentFile } from './durable-file.js'
import { COMPACTION_STEPS } from './compaction.js'
import type { CompactionStep } from './compaction.js'

const files = stateFiles('adops-coredoc-')
const { openAt, close, openCrashCopy } = files
let dir: string
let file: string
beforeEach(() => {
  dir = files.dir()
  file = files.file()
})

const user = (i: number, name = `User ${i}`): User => ({ id: `usr_${i}`, email: `u${i}@x.test`, name, created_at: '2026-01-01T00:00:00.000Z' })
const audit = (i: number) => ({ id: `aud_${i}`, status: 'executed', script: 'pause_campaign' }) as unknown as AuditEntry
const names = (store: FileStore) => store.users.all().map((u) => `${u.id}:${u.name}`)
const docOnDisk = async () => JSON.parse(await readFile(file, 'utf8')) as { seq: number; users: User[] }

describe('core document changes as state-log lines', () => {
  it('survive a kill -9 style reopen although the document was not rewritten', async () => {
    const first = await openAt(file)
    first.users.insert(user(1))
    first.users.insert(user(2))
    await close(first)
    const store = await openAt(file)
    const saves = vi.spyOn(JsonDocumentFile.prototype, 'write')
    store.users.update('usr_1', { name: 'renamed' })
    store.users.remove('usr_2')
    store.users.insert(user(3))
    store.setMeta({ ...store.meta(), seed: 7 })
    store.audit.insert(audit(1))
    await store.commit()
    expect(saves).not.toHaveBeenCalled()
    const next = await openCrashCopy()
    expect(names(next)).toEqual(['usr_1:renamed', 'usr_3:User 3'])
    expect(next.meta().seed).toBe(7)
    expect(next.audit.get('aud_1')?.id).toBe('aud_1')
  })

  it('never let lines older than the document regress it (a crash after a save, before the log lost them)', async () => {
    const store = await openAt(file)
    store.users.insert(user(1, 'v1'))
    await store.commit()
    store.users.update('usr_1', { name: 'v2' })
    store.users.insert(user(2))
    await store.commit()
    const oldLog = await readFile(`${file}.log`)
    store.users.update('usr_1', { name: 'v3' })
    store.users.remove('usr_2')
    await close(store)
    expect((await docOnDisk()).seq).toBeGreaterThanOrEqual(3)
    // The new document beside a log that still holds the older lines (and no checkpoint for it).
    await writeFile(`${file}.log`, oldLog)
    await rm(`${file}.log.ckpt`)
    const reopened = await openAt(file)
    expect(names(reopened)).toEqual(['usr_1:v3'])
  })

  it('numbers new lines above every line replayed at open, so a later save makes all of those stale', async () => {
    const store = await openAt(file)
    store.users.insert(user(1, 'v1'))
    await store.commit()
    for (const name of ['v2', 'v3']) {
      store.users.update('usr_1', { name })
      await store.commit()
    }
    // A second life on the files a kill left (no document yet, three lines): one change, then a save.
    const second = await openCrashCopy()
    second.users.update('usr_1', { name: 'v4' })
    await second.commit()
    second.history!.checkpoint()
    const secondDir = files.lastCrashDir()
    await rm(join(secondDir, 'state.json.log.ckpt'))
    // A full replay of its log must skip v2 and v3: they are older than the saved document.
    const third = await openCrashCopy(secondDir)
    expect(names(third)).toEqual(['usr_1:v4'])
  })
})

describe('when the document is saved', () => {
  it('saves it at a checkpoint and at close, with the sequence number of the last line it holds', async () => {
    const store = await openAt(file)
    const saves = vi.spyOn(JsonDocumentFile.prototype, 'write')
    store.users.insert(user(1))
    store.audit.insert(audit(1))
    await store.commit()
    expect(saves).not.toHaveBeenCalled()
    store.history!.checkpoint()
    expect(saves).toHaveBeenCalledTimes(1)
    expect((await docOnDisk()).users.map((u) => u.id)).toEqual(['usr_1'])
    // Nothing changed since: a second checkpoint does not rewrite it.
    store.history!.checkpoint()
    expect(saves).toHaveBeenCalledTimes(1)
    store.users.touch('usr_1', { name: 'touched' })
    await close(store)
    expect(saves).toHaveBeenCalledTimes(2)
    const doc = await docOnDisk()
    expect(doc.users[0].name).toBe('touched')
    const lines = (await readFile(`${file}.log`, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { d?: number })
    expect(Math.max(...lines.map((l) => l.d ?? 0))).toBe(doc.seq)
  })

  it('saves it in a flush once the doc lines since the last save pass the bound', async () => {
    const store = await openAt(file, { docLineBytes: 500 })
    const saves = vi.spyOn(JsonDocumentFile.prototype, 'write')
    for (let i = 0; i < 20; i++) {
      store.users.insert(user(i))
      await store.commit()
    }
    expect(saves.mock.calls.length).toBeGreaterThanOrEqual(2)
    expect(saves.mock.calls.length).toBeLessThanOrEqual(10)
    const next = await openCrashCopy()
    expect(next.users.size()).toBe(20)
  })
})

describe('compaction and the core document', () => {
  it.each(COMPACTION_STEPS)('loses no acknowledged doc change when the process dies at compaction step %s', async (failAt) => {
    const writes: Promise<void>[] = []
    let store: FileStore | null = null
    const onStep = (step: CompactionStep) => {
      // A doc change acknowledged mid-copy: it is appended to the old log only.
      if (step === 'copying' && writes.length === 0) {
        store!.users.update('usr_0', { name: 'mid-copy' })
        writes.push(store!.commit())
      }
      if (step === failAt) throw new Error(`killed at ${step}`)
    }
    store = await openAt(file, { compaction: { minDeadBytes: Infinity, batchRows: 5, onStep } })
    for (let i = 0; i < 30; i++) {
      store.audit.insert(audit(i))
      store.users.insert(user(i))
      await store.commit()
    }
    store.users.update('usr_1', { name: 'before' })
    store.users.remove('usr_2')
    await store.commit()
    await expect(store.history!.compact()).rejects.toThrow(`killed at ${failAt}`)
    await Promise.all(writes)
    const next = await openCrashCopy()
    expect(next.users.size()).toBe(29)
    expect(next.users.get('usr_0')?.name).toBe('mid-copy')
    expect(next.users.get('usr_1')?.name).toBe('before')
    expect(next.audit.size()).toBe(30)
  })

  it('counts doc lines as superseded bytes, across a restart too, so a log of mostly doc changes compacts', async () => {
    const store = await openAt(file, { compaction: { minDeadBytes: Infinity } })
    store.audit.insert(audit(1))
    for (let i = 0; i < 50; i++) {
      store.users.insert(user(i))
      await store.commit()
    }
    const docBytes = store.history!.docBytes
    expect(docBytes).toBeGreaterThan(50 * 60)
    await close(store)
    // Resumed from the checkpoint, and by a full replay of the log.
    const resumed = await openAt(file, { compaction: { minDeadBytes: 1000, deadRatio: 0.5 } })
    expect(resumed.history!.docBytes).toBe(docBytes)
    await close(resumed)
    await rm(`${file}.log.ckpt`)
    const replayed = await openAt(file, { compaction: { minDeadBytes: 1000, deadRatio: 0.5 } })
    expect(replayed.history!.docBytes).toBe(docBytes)
    replayed.users.update('usr_0', { name: 'after' })
    await replayed.commit()
    await replayed.history!.settle()
    expect(replayed.history!.compactions).toBe(1)
    expect(replayed.history!.docBytes).toBe(0)
    await close(replayed)
    const last = await openAt(file)
    expect(last.users.size()).toBe(50)
    expect(last.users.get('usr_0')?.name).toBe('after')
    expect(last.audit.size()).toBe(1)
  })

  it('leaves no doc line in a compacted log, the document holding them all', async () => {
    const store = await openAt(file, { compaction: { minDeadBytes: Infinity } })
    for (let i = 0; i < 10; i++) {
      store.users.insert(user(i))
      store.audit.insert(audit(i))
      await store.commit()
    }
    await store.history!.compact()
    expect(await readFile(`${file}.log`, 'utf8')).not.toContain('"d":')
    const next = await openCrashCopy()
    expect(next.users.size()).toBe(10)
  })
})

describe('reset and import', () => {
  it('replaces the document and the log so a kill -9 right after shows only the new state', async () => {
    const store = await openAt(file)
    store.users.insert(user(1))
    store.audit.insert(audit(1))
    await store.commit()
    store.replace({ ...emptySnapshot({ world: 'other', seed: 3, clock: { offset_ms: 0, frozen_at: null } }), users: [user(9)] })
    await store.commit()
    store.users.insert(user(10))
    await store.commit()
    const next = await openCrashCopy()
    expect(names(next)).toEqual(['usr_9:User 9', 'usr_10:User 10'])
    expect(next.meta().world).toBe('other')
    expect(next.audit.size()).toBe(0)
  })

  it('keeps a replace whole when the process dies after the new log but before the document is saved', async () => {
    const store = await openAt(file)
    store.users.insert(user(1))
    await close(store)
    const again = await openAt(file)
    vi.spyOn(JsonDocumentFile.prototype, 'write').mockImplementationOnce(() => {
      throw new Error('killed before the document was saved')
    })
    again.replace({ ...emptySnapshot(), users: [user(9)] })
    // The new log holds the replace (its doc lines): the commit stands, only the checkpoint waits.
    await again.commit()
    const next = await openCrashCopy()
    expect(names(next)).toEqual(['usr_9:User 9'])
    await close(again)
    const reopened = await openAt(file)
    expect(names(reopened)).toEqual(['usr_9:User 9'])
  })
})
