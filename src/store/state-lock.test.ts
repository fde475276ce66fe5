import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSandbox } from '../create-sandbox.js'
import { openStore } from './lowdb-store.js'
import { StateLockedError } from './state-lock.js'

let dir: string
let file: string
const children: ChildProcess[] = []
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-lock-'))
  file = join(dir, 'state.json')
})
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await rm(dir, { recursive: true, force: true })
})

/** A lock left behind as another process would leave it: the lock directory plus its owner record. */
async function plantLock(pid: number, ageMs: number): Promise<void> {
  await mkdir(`${file}.lock`)
  const then = new Date(Date.now() - ageMs)
  await utimes(`${file}.lock`, then, then)
  await writeFile(`${file}.owner`, JSON.stringify({ pid, host: hostname(), since: then.toISOString() }))
}

/** A process that is alive for the test (an idle node). */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  children.push(child)
  return child.pid!
}

/**
 * The pid of an exited process its parent has not reaped: a shell backgrounds it, then becomes
 * `sleep`, which never waits. The child outlives the exec by a moment: one that exited before it
 * could be reaped by the shell itself and never become a zombie (seen once in CI under load).
 */
async function zombiePid(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] })
  children.push(parent)
  const pid = Number(await new Promise<string>((done) => parent.stdout!.once('data', (chunk: Buffer) => done(chunk.toString()))))
  for (let i = 0; i < 100; i++) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return pid
    await new Promise((done) => setTimeout(done, 50))
  }
  throw new Error(`process ${pid} did not become a zombie`)
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((done) => child.on('exit', done))
  return child.pid!
}

describe('one writer per state file', () => {
  it('refuses a second sandbox on a file a live one holds, naming the file, the holder\'s URL and pid, until the first closes', async () => {
    const first = await createSandbox({ state: file })
    const second = createSandbox({ state: file })
    await expect(second).rejects.toBeInstanceOf(StateLockedError)
    await expect(second).rejects.toMatchObject({ code: 'STATE_LOCKED', file, owner: { pid: process.pid, url: first.baseUrl } })
    await expect(second).rejects.toThrow(`State file ${file} is in use by the sandbox running at ${first.baseUrl} (pid ${process.pid}, this process); use that sandbox, stop it, or start another with --state <another file> (or --state memory).`)
    await first.close()
    const third = await createSandbox({ state: file })
    await third.close()
  })

  it('records the holder next to the lock and removes both on close', async () => {
    const store = await openStore({ file })
    expect(existsSync(`${file}.lock`)).toBe(true)
    expect(JSON.parse(await readFile(`${file}.owner`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() })
    await store.close()
    expect(existsSync(`${file}.lock`)).toBe(false)
    expect(existsSync(`${file}.owner`)).toBe(false)
  })

  it('refuses at once a fresh lock held by another live process, naming its pid', async () => {
    const pid = liveProcess()
    await plantLock(pid, 0)
    // Nobody refreshes the planted lock: waiting instead of refusing would take it over after 3 s.
    await expect(openStore({ file })).rejects.toThrow(`State file ${file} is in use by pid ${pid};`)
  })

  // Linux only (/proc); CI runs on Linux.
  it.runIf(process.platform === 'linux')('takes over a fresh lock whose holder was killed but not yet reaped (a zombie), as a dead holder\'s, instead of refusing', async () => {
    await plantLock(await zombiePid(), 0)
    const store = await openStore({ file })
    expect(JSON.parse(await readFile(`${file}.owner`, 'utf8')).pid).toBe(process.pid)
    await store.close()
  })

  it.each([
    { holder: 'a killed process, lock still fresh', dead: true, ageMs: 0 },
    { holder: 'a killed process, lock already stale', dead: true, ageMs: 5000 },
    { holder: 'a live pid (reused), lock not refreshed for a minute', dead: false, ageMs: 60_000 },
  ])('takes over a lock left by $holder, and records itself as the holder', async ({ dead, ageMs }) => {
    await plantLock(dead ? await deadPid() : liveProcess(), ageMs)
    const store = await openStore({ file })
    expect(JSON.parse(await readFile(`${file}.owner`, 'utf8')).pid).toBe(process.pid)
    await store.close()
  })

  it('refuses to write once another process has taken its lock over, leaving the new holder\'s files alone', async () => {
    const store = await openStore({ file })
    store.users.insert({ id: 'usr_1', email: 'u@x.test', name: 'U', created_at: '2026-01-01T00:00:00.000Z' })
    await store.commit()
    // What a second process does when it finds this one's lock stale: replace the lock directory.
    await rm(`${file}.lock`, { recursive: true })
    await mkdir(`${file}.lock`)
    // The holder notices at its next refresh (every second); until then a commit may still pass.
    await vi.waitFor(async () => {
      store.users.insert({ id: `usr_${Math.random()}`, email: 'v@x.test', name: 'V', created_at: '2026-01-01T00:00:00.000Z' })
      await expect(store.commit()).rejects.toThrow(/lost the lock on .*state\.json.*refusing to write/)
    }, { timeout: 5000, interval: 100 })
    // From then on nothing is written: the change stays pending and every commit is refused.
    const after = await readFile(`${file}.log`, 'utf8')
    await expect(store.commit()).rejects.toThrow(/lost the lock/)
    expect(await readFile(`${file}.log`, 'utf8')).toBe(after)
    await store.close().catch(() => undefined)
    // Not even closing saves the core document over the new holder's.
    expect(existsSync(file)).toBe(false)
    expect(existsSync(`${file}.lock`)).toBe(true)
  })

  it('releases the lock when the state cannot be opened', async () => {
    await writeFile(file, '{"version":1,')
    await expect(openStore({ file })).rejects.toThrow(/not valid JSON/)
    expect(existsSync(`${file}.lock`)).toBe(false)
    await writeFile(file, '{"version":1,"meta":{"world":"empty","seed":1,"clock":{"offset_ms":0,"frozen_at":null}}}')
    await (await openStore({ file })).close()
  })

  it('releases the lock when the sandbox cannot be built (unknown world)', async () => {
    await expect(createSandbox({ state: file, world: 'no-such-world' })).rejects.toThrow(/not found/)
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('refuses an unknown durability before taking the lock', async () => {
    await expect(createSandbox({ state: file, durability: 'eventually' as never })).rejects.toThrow('durability must be one of process, fsync; got eventually')
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('keeps memory sandboxes lock-free', async () => {
    const [a, b] = await Promise.all([createSandbox(), createSandbox({ state: 'memory' })])
    await Promise.all([a.close(), b.close()])
    expect(existsSync(`${file}.lock`)).toBe(false)
  })
})
