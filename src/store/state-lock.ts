import { readFileSync, realpathSync, rmSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { lock } from 'proper-lockfile'
import { replaceFile } from './durable-file.js'

/** A live holder refreshes its lock's mtime this often (proper-lockfile `update`). */
const REFRESH_MS = 1000
/** A lock not refreshed for this long is stale whoever holds it (proper-lockfile `stale`). */
const STALE_MS = 10_000
/**
 * A lock whose recorded holder is a dead process on this host is taken over once it has not been
 * refreshed for this long: three missed refreshes, so a `kill -9` costs a restart about 3 s.
 */
const DEAD_HOLDER_STALE_MS = 3000
const RETRY = { retries: 20, factor: 1, minTimeout: 250, maxTimeout: 250 }

/** Who holds a state file, as written next to its lock (`<file>.owner`). */
export interface LockOwner {
  pid: number
  host: string
  since: string
  /** The holder's base URL, once it listens (`serve` records it), so a refused second start can name it. */
  url?: string
}

/**
 * A second process (or a second sandbox in this one) opened a state file that a live sandbox
 * holds. Thrown by `openStore`, `buildSandbox` and `createSandbox`; `serve` prints its message and
 * exits 2. Not a `SandboxError`: it never becomes an HTTP answer.
 */
export class StateLockedError extends Error {
  readonly code = 'STATE_LOCKED'

  constructor(readonly file: string, readonly owner: LockOwner | null) {
    const pid = owner ? `pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}` : 'another process'
    const self = owner?.pid === process.pid && owner.host === hostname()
    // A newcomer's second `serve` is usually a sandbox already running: say where, and how to start another (issue 37).
    const holder = owner?.url ? `the sandbox running at ${owner.url} (${pid}${self ? ', this process' : ''})` : `${pid}${self ? ' (this process)' : ''}`
    super(`State file ${file} is in use by ${holder}; use that sandbox, stop it, or start another with --state <another file> (or --state memory).`)
    this.name = 'StateLockedError'
  }
}

export interface StateLock {
  /** Why the lock was lost (another process took it over after this one stalled), or null. */
  lost(): Error | null
  /** Records the holder's base URL in `<file>.owner`. */
  announce(url: string): void
  release(): Promise<void>
}

/**
 * Takes the one-writer lock of a state file (a `<file>.lock` directory kept fresh by
 * proper-lockfile) and records this process in `<file>.owner`. A lock held by a live process is
 * refused at once with a `StateLockedError` naming its pid; a lock left by a killed process is
 * taken over once stale.
 */
export async function lockStateFile(file: string): Promise<StateLock> {
  const path = canonical(file)
  const ownerFile = `${path}.owner`
  let lost: Error | null = null
  const options = { realpath: false, update: REFRESH_MS, onCompromised: (error: Error) => { lost = error } }
  let unlock: () => Promise<void>
  try {
    unlock = await lock(path, { ...options, stale: STALE_MS })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
    const owner = readOwner(ownerFile)
    if (owner && isAlive(owner)) throw new StateLockedError(file, owner)
    // The recorded holder is gone (or unknown): wait for its lock to stop being refreshed.
    unlock = await lock(path, { ...options, stale: DEAD_HOLDER_STALE_MS, retries: RETRY }).catch((again: NodeJS.ErrnoException) => {
      throw again.code === 'ELOCKED' ? new StateLockedError(file, readOwner(ownerFile)) : again
    })
  }
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
  replaceFile(ownerFile, `${JSON.stringify(me)}\n`, { durability: 'process' })
  let released = false
  return {
    lost: () => lost,
    announce(url) {
      if (released || readOwner(ownerFile)?.pid !== me.pid) return
      replaceFile(ownerFile, `${JSON.stringify({ ...me, url })}\n`, { durability: 'process' })
    },
    async release() {
      if (released) return
      released = true
      // Remove the record only while it is still ours, then the lock itself.
      if (readOwner(ownerFile)?.pid === me.pid) rmSync(ownerFile, { force: true })
      if (!lost) await unlock()
    },
  }
}

/** The holder recorded next to a lock, or null when there is none or it cannot be read. */
export function readOwner(ownerFile: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(ownerFile, 'utf8')) as LockOwner
    if (!Number.isInteger(owner.pid) || typeof owner.host !== 'string') return null
    // Only an http(s) URL is repeated in the refusal: the file is read back from disk.
    return typeof owner.url === 'string' && !/^https?:\/\/[^\s]+$/.test(owner.url) ? { ...owner, url: undefined } : owner
  } catch {
    return null
  }
}

// A pid can only be checked on this host; a holder on another host (a shared volume) counts as alive.
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true
  try {
    process.kill(owner.pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  // A killed holder stays a zombie until its parent reaps it (at once in a shell, maybe never
  // under a container's PID 1): it holds nothing, so it must not block a restart.
  return !isZombie(owner.pid)
}

/** Whether Linux lists `pid` as a zombie (`/proc/<pid>/stat` state `Z`); false where there is no /proc. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // `pid (comm) state …`: comm may hold spaces and parentheses, so read after the last `)`.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch {
    return false
  }
}

// One lock per file, however it is named (a relative path, a symlinked directory).
function canonical(file: string): string {
  const dir = dirname(resolve(file))
  return join(realpathSync(dir), basename(file))
}
