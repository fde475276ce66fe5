/** Capacity a `LineBytes` starts with, and keeps between flushes. */
const KEPT_BYTES = 64 * 1024

/**
 * The bytes of one group commit's log text, encoded straight into a buffer reused from one flush
 * to the next. Building the text as a string first cost a UTF-8 length pass per line, the joined
 * string, its flattening and a fresh Buffer per flush: ≈ a sixth of the bytes the agent session
 * allocated (bench/README.md). A buffer grown past `KEPT_BYTES` by a large flush is let go at the
 * next `reset`, so memory stays bounded by the usual flush.
 */
export class LineBytes {
  #buffer = Buffer.allocUnsafe(KEPT_BYTES)
  /** Bytes written since the last `reset`. */
  length = 0

  reset(): void {
    if (this.#buffer.length > KEPT_BYTES) this.#buffer = Buffer.allocUnsafe(KEPT_BYTES)
    this.length = 0
  }

  /** Appends `text` and a newline; returns the length of `text` in bytes (newline excluded). */
  line(text: string): number {
    const written = this.append(text)
    this.#buffer[this.length++] = 0x0a
    return written
  }

  /** Appends `text` as it is; returns its length in bytes. */
  append(text: string): number {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, two units, takes 4); +1 for a newline.
    this.#ensure(text.length * 3 + 1)
    const written = this.#buffer.write(text, this.length, 'utf8')
    this.length += written
    return written
  }

  /** A view of the bytes written so far (valid until the next `reset` or write). */
  get bytes(): Buffer {
    return this.#buffer.subarray(0, this.length)
  }

  /** A copy of `[from, to)` that outlives the next `reset`. */
  copy(from: number, to = this.length): Buffer {
    return Buffer.from(this.#buffer.subarray(from, to))
  }

  #ensure(more: number): void {
    if (this.length + more <= this.#buffer.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.length + more))
    this.#buffer.copy(grown, 0, 0, this.length)
    this.#buffer = grown
  }
}
