import { cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, vi } from 'vitest'
import type { FileStore, StoreOptions } from '../store/lowdb-store.js'
import { openStore } from '../store/lowdb-store.js'

/** A fresh state directory per test, the stores opened in it, and copies of its files as a `kill -9` would leave them. */
export interface StateFiles {
  /** This test's directory and its `state.json` path. */
  dir(): string
  file(): string
  openAt(path: string, options?: Omit<StoreOptions, 'file'>): Promise<FileStore>
  close(store: FileStore): Promise<void>
  /** Opens a copy of the state files as they are right now (the live store keeps its lock). */
  openCrashCopy(from?: string): Promise<FileStore>
  /** The directory of the latest crash copy. */
  lastCrashDir(): string
}

/** Registers the hooks of a store test file: a temp directory per test, every store closed and the directory removed after. */
export function stateFiles(prefix: string, defaults: Omit<StoreOptions, 'file'> = {}): StateFiles {
  let dir = ''
  let copies = 0
  const open: FileStore[] = []
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix))
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    for (const store of open.splice(0)) await store.close().catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
  })
  const openAt = async (path: string, options: Omit<StoreOptions, 'file'> = {}) => {
    const store = await openStore({ file: path, ...defaults, ...options })
    open.push(store)
    return store
  }
  return {
    dir: () => dir,
    file: () => join(dir, 'state.json'),
    openAt,
    async close(store) {
      open.splice(open.indexOf(store), 1)
      await store.close()
    },
    lastCrashDir: () => join(dir, `crashed-${copies}`),
    async openCrashCopy(from = dir) {
      const crashed = join(dir, `crashed-${++copies}`)
      const files = (await readdir(from)).filter((f) => f.startsWith('state.json') && !f.endsWith('.lock') && !f.endsWith('.owner'))
      for (const f of files) await cp(join(from, f), join(crashed, f))
      return openAt(join(crashed, 'state.json'))
    },
  }
}
