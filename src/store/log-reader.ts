import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

const BLOCK = 256 * 1024

/**
 * Reads lines of the state log by byte offset. One block is cached, so a scan in either direction
 * (newest first for pages, oldest first for compaction) costs one read per block, not per row.
 * The file is reopened after a compaction renames a new one over it (`reopen`).
 */
export class LogReader {
  #fd: number | null = null
  #block = Buffer.alloc(0)
  #start = 0

  constructor(private readonly path: string) {}

  /** The parsed line at `offset` (`length` bytes, newline excluded). */
  line<T>(offset: number, length: number, direction: 'back' | 'forward' = 'back'): T {
    let rel = offset - this.#start
    if (rel < 0 || rel + length > this.#block.length) {
      this.#fill(offset, length, direction)
      rel = offset - this.#start
    }
    return JSON.parse(this.#block.toString('utf8', rel, rel + length)) as T
  }

  /** A copy of the line's bytes (compaction copies lines without parsing them). */
  raw(offset: number, length: number, direction: 'back' | 'forward' = 'forward'): Buffer {
    let rel = offset - this.#start
    if (rel < 0 || rel + length > this.#block.length) {
      this.#fill(offset, length, direction)
      rel = offset - this.#start
    }
    return Buffer.from(this.#block.subarray(rel, rel + length))
  }

  /** Forget the cached block and descriptor (the file was replaced or appended to). */
  reopen(): void {
    if (this.#fd !== null) closeSync(this.#fd)
    this.#fd = null
    this.#block = Buffer.alloc(0)
  }

  /** Drops the cached block if it may hold bytes at or past `offset` that were read before they were written. */
  appended(offset: number): void {
    if (this.#start + this.#block.length > offset) this.#block = Buffer.alloc(0)
  }

  close(): void {
    this.reopen()
  }

  #fill(offset: number, length: number, direction: 'back' | 'forward'): void {
    this.#fd ??= openSync(this.path, 'r')
    const size = fstatSync(this.#fd).size
    const span = Math.max(BLOCK, length)
    const start = direction === 'back' ? Math.max(0, offset + length - span) : offset
    const end = Math.min(size, start + span)
    const block = Buffer.allocUnsafe(end - start)
    for (let done = 0; done < block.length;) {
      const n = readSync(this.#fd, block, done, block.length - done, start + done)
      if (n === 0) throw new Error(`${this.path}: short read at ${start + done}`)
      done += n
    }
    this.#block = block
    this.#start = start
  }
}
