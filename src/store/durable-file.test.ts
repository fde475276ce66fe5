import { mkdtemp, readFile, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** File-system calls of the code under test, in order, with paths instead of descriptors. */
const ops: string[] = []

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const paths = new Map<number, string>()
  const name = (fd: number) => paths.get(fd) ?? `fd${fd}`
  const wrapped = {
    ...fs,
    openSync: (path: string, flags: string) => {
      const fd = fs.openSync(path, flags)
      paths.set(fd, path)
      return fd
    },
    writeSync: (fd: number, ...rest: [Buffer, number, number]) => (ops.push(`write ${name(fd)}`), fs.writeSync(fd, ...rest)),
    fsyncSync: (fd: number) => (ops.push(`fsync ${name(fd)}`), fs.fsyncSync(fd)),
    fdatasyncSync: (fd: number) => (ops.push(`fdatasync ${name(fd)}`), fs.fdatasyncSync(fd)),
    renameSync: (from: string, to: string) => (ops.push(`rename ${from} -> ${to}`), fs.renameSync(from, to)),
  }
  return { ...wrapped, default: wrapped }
})

const { AppendFile, replaceFile } = await import('./durable-file.js')
const { openStore } = await import('./lowdb-store.js')

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-durable-'))
  ops.length = 0
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

// Paths relative to the test directory, so expectations read as file names.
const shown = () => ops.map((op) => op.replaceAll(`${dir}/`, '').replaceAll(dir, '<dir>'))

describe('durability: what reaches the disk before a write returns', () => {
  it('fsync: a replaced file is fsynced before its rename and its directory after it', async () => {
    replaceFile(join(dir, 'state.json'), '{"a":1}', { durability: 'fsync' })
    expect(shown()).toEqual(['write state.json.tmp', 'fsync state.json.tmp', 'rename state.json.tmp -> state.json', 'fsync <dir>'])
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe('{"a":1}')
  })

  it('fsync: an append is fdatasynced, and the append that creates the file also syncs its directory', async () => {
    const log = join(dir, 'state.json.log')
    const file = new AppendFile(log, 'fsync')
    file.append(Buffer.from('one\n'))
    file.append(Buffer.from('two\n'))
    file.close()
    expect(shown()).toEqual(['write state.json.log', 'fdatasync state.json.log', 'fsync <dir>', 'write state.json.log', 'fdatasync state.json.log'])
    expect(await readFile(log, 'utf8')).toBe('one\ntwo\n')
  })

  it('an append file keeps its descriptor until closed: a file renamed over its path is appended to after close only', async () => {
    const log = join(dir, 'state.json.log')
    const file = new AppendFile(log, 'process')
    file.append(Buffer.from('old\n'))
    await rename(log, `${log}.old`)
    // Still the same open file: the replacement is not written until the descriptor is let go.
    file.append(Buffer.from('kept\n'))
    expect(await readFile(`${log}.old`, 'utf8')).toBe('old\nkept\n')
    file.close()
    file.append(Buffer.from('new\n'))
    file.close()
    expect(await readFile(log, 'utf8')).toBe('new\n')
  })

  it('process (default): the same writes and rename, never an fsync', async () => {
    replaceFile(join(dir, 'state.json'), '{}', { durability: 'process' })
    const file = new AppendFile(join(dir, 'state.json.log'), 'process')
    file.append(Buffer.from('one\n'))
    file.close()
    expect(shown()).toEqual(['write state.json.tmp', 'rename state.json.tmp -> state.json', 'write state.json.log'])
  })

  it.each([
    { durability: 'fsync' as const, synced: ['fdatasync state.json.log', 'fsync <dir>'] },
    { durability: 'process' as const, synced: [] },
  ])('a $durability store syncs each group commit before commit() resolves: $synced', async ({ durability, synced }) => {
    const file = join(dir, 'state.json')
    const store = await openStore({ file, durability })
    ops.length = 0
    store.users.insert({ id: 'usr_1', email: 'u@x.test', name: 'U', created_at: '2026-01-01T00:00:00.000Z' })
    store.audit.insert({ id: 'aud_1', status: 'executed' } as never)
    await store.commit()
    // One append holds the user's doc line and the audit line; the directory only when it created the log.
    expect(shown().filter((op) => !op.startsWith('write'))).toEqual(synced)
    ops.length = 0
    store.users.update('usr_1', { name: 'V' })
    await store.commit()
    expect(shown()).toEqual(durability === 'fsync' ? ['write state.json.log', 'fdatasync state.json.log'] : ['write state.json.log'])
    await store.close()
  })

  it('fsync: the core document saved at close is fsynced before its rename, then its directory, then the checkpoint', async () => {
    const file = join(dir, 'state.json')
    const store = await openStore({ file, durability: 'fsync' })
    store.users.insert({ id: 'usr_1', email: 'u@x.test', name: 'U', created_at: '2026-01-01T00:00:00.000Z' })
    await store.commit()
    ops.length = 0
    await store.close()
    expect(shown().filter((op) => !op.startsWith('write'))).toEqual([
      'fsync .state.json.tmp', 'rename .state.json.tmp -> state.json', 'fsync <dir>',
      'fsync state.json.log.ckpt.tmp', 'rename state.json.log.ckpt.tmp -> state.json.log.ckpt', 'fsync <dir>',
    ])
  })
})
