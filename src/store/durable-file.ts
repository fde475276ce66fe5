import { closeSync, fdatasyncSync, fstatSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { SyncAdapter } from 'lowdb'

/**
 * How far an acknowledged write is guaranteed to survive.
 * - `process` (default): the process dying (crash, `kill -9`). Files are replaced by rename and
 *   logs appended; the data sits in the OS page cache, which outlives the process.
 * - `fsync`: also power loss or an OS crash. Every group commit is fsynced (the new file before its
 *   rename, the directory after it, each append) before any request it holds is answered.
 */
export type Durability = 'process' | 'fsync'

export const DURABILITIES: readonly Durability[] = ['process', 'fsync']

/** Replaces a file whole: a temp file beside it, then a rename over it (never a half-written file). */
export function replaceFile(path: string, text: string | Buffer, options: { durability: Durability; tmp?: string }): void {
  const { durability, tmp = `${path}.tmp` } = options
  try {
    const fd = openSync(tmp, 'w')
    try {
      writeAll(fd, text)
      // The data must be on disk before the rename is, or a power cut can leave the new name empty.
      if (durability === 'fsync') fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, path)
  } catch (error) {
    // A half-written temp file on a full disk would hold the space the next try needs (issue 36).
    removeQuietly(tmp)
    throw error
  }
  if (durability === 'fsync') syncDirectory(dirname(path))
}

/** Deletes a leftover file, ignoring every failure (it may not exist; the disk may be failing). */
export function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true })
  } catch {
    // Nothing to do: the next open deletes leftovers too.
  }
}

/**
 * A file appended to through one descriptor kept open between appends (the state log: opening
 * and closing it cost two system calls per group commit). Whoever replaces the file (rename,
 * rewrite) calls `close`, so the next append opens the new one; a failed append closes it too.
 */
export class AppendFile {
  #fd: number | null = null

  constructor(
    readonly path: string,
    readonly durability: Durability,
  ) {}

  append(bytes: Buffer): void {
    let created = false
    if (this.#fd === null) {
      this.#fd = openSync(this.path, 'a')
      created = this.durability === 'fsync' && fstatSync(this.#fd).size === 0
    }
    try {
      writeAll(this.#fd, bytes)
      if (this.durability === 'fsync') fdatasyncSync(this.#fd)
    } catch (error) {
      this.close()
      throw error
    }
    // A file created by this append also needs its directory entry on disk.
    if (created) syncDirectory(dirname(this.path))
  }

  close(): void {
    if (this.#fd === null) return
    const fd = this.#fd
    this.#fd = null
    closeSync(fd)
  }
}

// writeSync may write less than asked (as fs.writeFileSync knows): loop until every byte is out.
function writeAll(fd: number, text: string | Buffer): void {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done)
}

/** Makes a rename or a file creation in `dir` durable (POSIX: fsync the directory). */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * A lowdb adapter for one JSON document, written with `replaceFile` at the chosen durability
 * (lowdb's own `DataFileSync` renames without fsync). Same temp name as lowdb's (`.<file>.tmp`).
 */
export class JsonDocumentFile<T> implements SyncAdapter<T> {
  constructor(private readonly path: string, private readonly durability: Durability) {}

  read(): T | null {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    return JSON.parse(text) as T
  }

  write(data: T): void {
    replaceFile(this.path, JSON.stringify(data), { durability: this.durability, tmp: join(dirname(this.path), `.${basename(this.path)}.tmp`) })
  }
}
