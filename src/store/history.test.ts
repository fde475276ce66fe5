import { existsSync } from 'node:fs'
import { readFile, readdir, rm, stat } from 'node:fs/promises'
import { beforeEach, describe, expect, it } from 'vitest'
import type { AuditEntry, LedgerEntry } from '../domain/model.js'
import type { FileStore } from './lowdb-store.js'
import { stateFiles } from '../test-support/state-files.js'
import type { LogTable } from './history-table.js'
import { COMPACTION_STEPS } from './compaction.js'
import type { CompactionStep } from './compaction.js'

const state = stateFiles('adops-history-', { historyWindow: 5 })
const { openAt, openCrashCopy } = state
const closeStore = state.close
let file: string
beforeEach(() => {
  file = state.file()
})

const audit = (i: number, over: Partial<AuditEntry> = {}) => ({
  id: `aud_${i}`, at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), workspace_id: i % 3 ? 'ws_a' : 'ws_b', key_id: `key_${i % 2}`,
  key_prefix: 'svc_test_x', status: 'executed', script: 'pause_campaign', dedupe_key: null, ...over,
}) as unknown as AuditEntry
const ledger = (i: number): LedgerEntry => ({
  id: `led_${i}`, at: new Date(Date.UTC(2026, 0, 1 + (i % 2), 0, i)).toISOString(), workspace_id: 'ws_a', key_id: 'key_0', script: 'x',
  amount: -1, balance_after: 1000 - i, reason: 'charge', audit_id: null,
})
const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id)
const resident = (store: FileStore) => (store.audit as unknown as LogTable<AuditEntry>).resident + (store.ledger as unknown as LogTable<LedgerEntry>).resident

async function write(store: FileStore, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    store.audit.insert(audit(i))
    store.ledger.insert(ledger(i))
    if (i % 50 === 49) await store.commit()
  }
  await store.commit()
}

describe('history tables on disk', () => {
  it('keeps only the window, pinned rows and unflushed rows in memory, however many rows were written', async () => {
    const store = await openAt(file)
    store.audit.insert(audit(-1, { status: 'pending_review', dedupe_key: 'k' }))
    await write(store, 0, 2000)
    // 5 recent rows per table plus the one pending review, after 4 000 rows.
    expect(resident(store)).toBeLessThanOrEqual(2 * 5 + 1)
    expect(store.audit.size()).toBe(2001)
    expect(store.audit.get('aud_17')?.id).toBe('aud_17')
    expect(store.audit.pinnedBy('k')?.id).toBe('aud_-1')
    expect(store.audit.count('workspace_id', 'ws_b')).toBe(667)
    // Pairs: a key's entries in one workspace (keys 0 and 1 alternate, workspaces by thirds).
    expect(store.audit.count('workspace_id|key_id', 'ws_b|key_0')).toBe(334)
    expect(store.ledger.aggregate<Map<string, number>>('spend_by_key').get('key_0')).toBe(-2000)
    // An old row read back from disk can be updated; the update is durable.
    store.audit.update('aud_3', { status: 'failed' })
    await closeStore(store)
    const again = await openAt(file)
    expect(again.audit.get('aud_3')?.status).toBe('failed')
    expect(again.audit.pinnedBy('k')?.id).toBe('aud_-1')
    expect(resident(again)).toBeLessThanOrEqual(2 * 5 + 1)
  })

  it('pages newest first with cursors that stay valid while rows append, across a compaction and a restart', async () => {
    const store = await openAt(file, { compaction: { minDeadBytes: 0, deadRatio: 0 } })
    await write(store, 0, 100)
    const first = store.audit.page({ where: (r) => r.workspace_id === 'ws_a', limit: 10 })
    const expected = Array.from({ length: 100 }, (_, i) => i).filter((i) => i % 3).reverse().map((i) => `aud_${i}`)
    expect(ids(first.rows)).toEqual(expected.slice(0, 10))
    await write(store, 100, 130)
    const second = store.audit.page({ where: (r) => r.workspace_id === 'ws_a', limit: 10, cursor: first.next })
    expect(ids(second.rows)).toEqual(expected.slice(10, 20))
    store.audit.update('aud_1', { status: 'failed' })
    await store.commit()
    await store.history!.compact()
    const third = store.audit.page({ where: (r) => r.workspace_id === 'ws_a', limit: 10, cursor: second.next })
    expect(ids(third.rows)).toEqual(expected.slice(20, 30))
    await closeStore(store)
    const again = await openAt(file)
    const rest = again.audit.page({ where: (r) => r.workspace_id === 'ws_a', cursor: third.next })
    expect(ids(rest.rows)).toEqual(expected.slice(30))
    expect(rest.next).toBeNull()
    expect(again.audit.get('aud_1')?.status).toBe('failed')
  })

  it('reads at most `examine` rows per page and continues from the last row read, so a narrow filter never reads the whole history at once', async () => {
    const store = await openAt(file)
    await write(store, 0, 100)
    const where = (r: AuditEntry) => r.workspace_id === 'ws_b'
    const pages: string[][] = []
    let cursor: string | null = null
    do {
      const page = store.audit.page({ where, limit: 100, examine: 30, cursor })
      pages.push(ids(page.rows))
      cursor = page.next
    } while (cursor && pages.length < 10)
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10, 4])
    expect(pages.flat()).toEqual(Array.from({ length: 34 }, (_, i) => `aud_${99 - 3 * i}`))
  })

  it('resumes from the checkpoint and the log tail exactly as from a full replay', async () => {
    const store = await openAt(file)
    await write(store, 0, 300)
    await closeStore(store)
    const resumed = await openAt(file)
    await write(resumed, 300, 320)
    resumed.audit.update('aud_5', { status: 'failed' })
    await closeStore(resumed)
    const fromCheckpoint = await openAt(file)
    const viaCheckpoint = { all: ids(fromCheckpoint.audit.page({}).rows), aud5: fromCheckpoint.audit.get('aud_5')?.status, ws: fromCheckpoint.audit.count('workspace_id', 'ws_a') }
    await closeStore(fromCheckpoint)
    await rm(`${file}.log.ckpt`)
    const replayed = await openAt(file)
    expect({ all: ids(replayed.audit.page({}).rows), aud5: replayed.audit.get('aud_5')?.status, ws: replayed.audit.count('workspace_id', 'ws_a') }).toEqual(viaCheckpoint)
    expect(viaCheckpoint.all).toHaveLength(320)
  })
})

/** The log bytes a checkpoint file covers (its head's `size`). */
async function coveredBy(path: string): Promise<number> {
  const data = await readFile(path)
  return (JSON.parse(data.toString('utf8', 4, 4 + data.readUInt32LE(0))) as { size: number }).size
}

describe('checkpoints', () => {
  it('come twice the size of the last one apart once that exceeds the set interval, so they never write more than half what the log does', async () => {
    const store = await openAt(file, { compaction: { checkpointBytes: 1024 } })
    const log = store.history!
    const ckpt = `${file}.log.ckpt`
    let i = 0
    while (!existsSync(ckpt)) await write(store, i, (i += 10))
    const first = await coveredBy(ckpt)
    const interval = 2 * (await stat(ckpt)).size
    // One 64k-entry chunk per table alone weighs ≈ 0.8 MB: far past the 1 KiB asked.
    expect(interval).toBeGreaterThan(1024 * 1024)
    expect(log.checkpointInterval).toBe(interval)
    // Flushes that stay within the interval leave the checkpoint where it was …
    while (log.size + 20_000 < first + interval) await write(store, i, (i += 20))
    expect(await coveredBy(ckpt)).toBe(first)
    // … and the first flush past it writes the next one.
    while (log.size <= first + interval) await write(store, i, (i += 20))
    expect(await coveredBy(ckpt)).toBe(log.size)
  })

  it('keep the set interval while twice their size is less', async () => {
    const store = await openAt(file, { compaction: { checkpointBytes: 64 << 20 } })
    await write(store, 0, 10)
    store.history!.checkpoint()
    expect(store.history!.checkpointInterval).toBe(64 << 20)
  })

  it('never describe rows the log does not hold yet, so a crash before their flush counts nothing twice', async () => {
    const store = await openAt(file)
    await write(store, 0, 30)
    store.audit.insert(audit(100))
    store.history!.checkpoint()
    // The files as a crash right now leaves them: the unflushed row is in no file.
    const next = await openCrashCopy()
    expect(next.audit.size()).toBe(30)
    expect(next.audit.count('workspace_id', 'ws_a') + next.audit.count('workspace_id', 'ws_b')).toBe(30)
    await store.commit()
    await closeStore(store)
    const again = await openAt(file)
    expect(again.audit.size()).toBe(31)
    expect(again.audit.count('workspace_id', 'ws_a') + again.audit.count('workspace_id', 'ws_b')).toBe(31)
  })
})

describe('online compaction', () => {
  it('shrinks the log to its live rows while writes go on, and keeps every row', async () => {
    const store = await openAt(file, { compaction: { minDeadBytes: Infinity, batchRows: 7 } })
    await write(store, 0, 100)
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 100; i++) store.audit.update(`aud_${i}`, { status: round % 2 ? 'executed' : 'failed' })
      await store.commit()
    }
    const before = (await stat(`${file}.log`)).size
    const compaction = store.history!.compact()
    // Writes acknowledged while it copies land in the side buffer and survive the rename.
    await write(store, 100, 120)
    await compaction
    expect((await stat(`${file}.log`)).size).toBeLessThan(before / 2)
    expect(store.audit.get('aud_119')?.id).toBe('aud_119')
    await closeStore(store)
    const again = await openAt(file)
    expect(again.audit.size()).toBe(120)
    expect(again.audit.get('aud_42')?.status).toBe('failed')
  })

  it.each(COMPACTION_STEPS)('loses no acknowledged write when the process dies at step %s', async (failAt) => {
    let acknowledged = 0
    const writes: Promise<void>[] = []
    let store: FileStore | null = null
    const onStep = (step: CompactionStep) => {
      // A write acknowledged mid-copy: it must survive whatever happens next.
      if (step === 'copying' && acknowledged === 0) {
        store!.audit.insert(audit(500))
        store!.audit.update('aud_0', { status: 'failed' })
        writes.push(store!.commit().then(() => { acknowledged++ }))
      }
      if (step === failAt) throw new Error(`killed at ${step}`)
    }
    store = await openAt(file, { compaction: { minDeadBytes: Infinity, batchRows: 10, onStep } })
    await write(store, 0, 60)
    for (let i = 0; i < 60; i++) store.audit.update(`aud_${i}`, { status: 'rejected' })
    await store.commit()
    await expect(store.history!.compact()).rejects.toThrow(`killed at ${failAt}`)
    await Promise.all(writes)
    expect(acknowledged).toBe(1)
    // What a crash at that moment leaves on disk, opened by the next process.
    const next = await openCrashCopy()
    const crashed = state.lastCrashDir()
    expect(await readdir(crashed)).toContain('state.json.log')
    expect(next.audit.size()).toBe(61)
    expect(next.audit.get('aud_0')?.status).toBe('failed')
    expect(next.audit.get('aud_59')?.status).toBe('rejected')
    expect(next.audit.get('aud_500')?.id).toBe('aud_500')
    expect((await readdir(crashed)).filter((f) => f.endsWith('.compact'))).toEqual([])
    // The process that saw the failure carries on with a consistent store.
    store.audit.insert(audit(501))
    await closeStore(store)
    const again = await openAt(file)
    expect(again.audit.size()).toBe(62)
    expect(again.audit.get('aud_0')?.status).toBe('failed')
  })
})
