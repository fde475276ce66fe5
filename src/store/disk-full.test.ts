import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

/**
 * Storage failure on a write (issue 36): a group commit that cannot be written is refused whole
 * (503 STORAGE_UNAVAILABLE with Retry-After), none of it stays in memory or reaches the disk
 * later, reads keep answering, and the sandbox recovers once the disk does.
 *
 * The disk is a real 4 MiB tmpfs when this process may mount one (root with CAP_SYS_ADMIN, as in
 * CI's container); elsewhere a full disk is an ENOSPC injected into the file layer below (the
 * `node:fs` calls the store makes), which is also how EIO and EACCES are made everywhere.
 */
const fault: { code: string | null } = { code: null }

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const failing = <A extends unknown[], R>(call: (...args: A) => R) => (...args: A): R => {
    if (fault.code) throw Object.assign(new Error(`${fault.code}: injected storage failure`), { code: fault.code })
    return call(...args)
  }
  const wrapped = {
    ...fs,
    writeSync: failing(fs.writeSync),
    fsyncSync: failing(fs.fsyncSync),
    fdatasyncSync: failing(fs.fdatasyncSync),
    renameSync: failing(fs.renameSync),
  }
  return { ...wrapped, default: wrapped }
})

const { startSandbox, KEYS } = await import('../test-support/http.js')
type TestSandbox = Awaited<ReturnType<typeof startSandbox>>

/** Mounts a small tmpfs, or says why it cannot (then the disk-full cases inject ENOSPC instead). */
function mountTmpfs(dir: string): string | null {
  if (process.getuid?.() !== 0) return 'not root'
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' })
    return null
  } catch (error) {
    return `mount failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`
  }
}

let root: string
let whyInjected: string | null
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adops-disk-full-'))
  whyInjected = mountTmpfs(root)
  // Said once in the run's output, so a reader knows which disk the figures came from.
  console.info(whyInjected ? `disk-full: ENOSPC injected in the file layer (${whyInjected})` : `disk-full: real 4 MiB tmpfs at ${root}`)
})
afterAll(async () => {
  if (!whyInjected) execFileSync('umount', [root])
  await rm(root, { recursive: true, force: true })
})

let sb: TestSandbox | null = null
let dir = ''
afterEach(async () => {
  fault.code = null
  await rm(join(root, 'filler'), { force: true })
  await sb?.close().catch(() => undefined)
  sb = null
  await rm(dir, { recursive: true, force: true })
})

/** Fills the disk: on tmpfs, a file that takes every free block; else every write fails with ENOSPC. */
async function fillDisk(): Promise<void> {
  if (whyInjected) {
    fault.code = 'ENOSPC'
    return
  }
  const block = Buffer.alloc(64 << 10, 120)
  const path = join(root, 'filler')
  for (let size = block.length; ; size = Math.max(1, size >> 1)) {
    try {
      for (;;) await writeFile(path, block.subarray(0, size), { flag: 'a' })
    } catch {
      if (size === 1) return
    }
  }
}

async function freeDisk(): Promise<void> {
  fault.code = null
  await rm(join(root, 'filler'), { force: true })
}

const createKey = (name: string) => sb!.base('POST', '/api/v1/keys', { key: KEYS.owner, body: { name, scopes: ['reporting:read'] } })
const keyNames = async () => ((await sb!.base('GET', '/api/v1/keys', { key: KEYS.owner })).body.keys as Array<{ name: string }>).map((k) => k.name)

async function open(durability: 'process' | 'fsync'): Promise<TestSandbox> {
  return startSandbox({ state: join(dir, 'state.json'), durability })
}

describe.each(['process', 'fsync'] as const)('a full disk under %s durability', (durability) => {
  it('refuses the writes it cannot store with 503 STORAGE_UNAVAILABLE, keeps none of them, answers reads, and recovers once space returns', async () => {
    dir = await mkdtemp(join(root, 'state-'))
    sb = await open(durability)
    expect((await createKey('before')).status).toBe(201)
    await fillDisk()
    // Small writes may still fit in a block the log already has: write until the disk refuses.
    const acknowledged: string[] = []
    const refused: string[] = []
    for (let i = 0; i < 200 && refused.length < 3; i++) {
      const answer = await createKey(`full-${i}`)
      if (answer.status === 201) acknowledged.push(`full-${i}`)
      else {
        expect(answer.status).toBe(503)
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
        expect(answer.headers.get('retry-after')).toBe('5')
        expect(answer.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE' })
        expect(answer.body.error).toContain('ENOSPC')
        refused.push(`full-${i}`)
      }
    }
    expect(refused.length).toBeGreaterThan(0)
    // Reads answer from memory, and show none of the refused writes.
    const me = await sb.api('GET', '/v1/me', { key: KEYS.owner })
    expect(me.status).toBe(200)
    expect(await keyNames()).toEqual(expect.arrayContaining(['before', ...acknowledged]))
    for (const name of refused) expect(await keyNames()).not.toContain(name)
    // A left-behind temp file would hold the space the next write needs.
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp') || f.endsWith('.compact'))).toEqual([])

    await freeDisk()
    expect((await createKey('after')).status).toBe(201)
    await sb.close()
    sb = await open(durability)
    const names = await keyNames()
    expect(names).toEqual(expect.arrayContaining(['before', 'after', ...acknowledged]))
    for (const name of refused) expect(names).not.toContain(name)
  })
})

describe.each([['EIO', 'process'], ['EACCES', 'fsync'], ['EIO', 'fsync'], ['EACCES', 'process']] as const)('a storage failure (%s, %s durability) on a write', (code, durability) => {
  it('is refused with 503 and Retry-After, applies nothing in memory or later on disk, and the next write after it works', async () => {
    dir = await mkdtemp(join(tmpdir(), 'adops-storage-fault-'))
    sb = await open(durability)
    // Reads mark their key used (not a write: `last_used_at` is never a reason to refuse).
    const state = async () => (await sb!.stateText()).replace(/"last_used_at":("[^"]*"|null)/g, '')
    const before = await state()
    fault.code = code
    const refused = await createKey('refused')
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE' })
    expect(refused.body.error).toContain(code)
    expect(refused.headers.get('retry-after')).toBe('5')
    // A held write (the gate's pending entry and its audit line), on the fast dispatcher path.
    const campaigns = await sb.api('GET', '/v1/campaigns?limit=1', { key: KEYS.owner })
    const campaignId = campaigns.body.campaigns[0].campaign_id as string
    const held = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'enable_campaign', args: ['--campaign-id', campaignId], platform: 'google' } })
    expect(held.status).toBe(503)
    expect(held.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE' })
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
    fault.code = null
    expect(await state()).toBe(before)
    expect((await createKey('after')).status).toBe(201)
    await sb.close()
    sb = await open(durability)
    const names = await keyNames()
    expect(names).toContain('after')
    expect(names).not.toContain('refused')
  })
})
