/** Rows per chunk: growing allocates one chunk (768 KiB), never a copy of everything so far. */
const CHUNK_BITS = 16
const CHUNK = 1 << CHUNK_BITS
const MASK = CHUNK - 1

/**
 * Where the latest version of each history row sits in the state log, by insertion sequence
 * number: a byte offset and a line length (12 bytes a row, in typed-array chunks outside the JS
 * object graph). Negative offsets: the row is only in memory (`UNWRITTEN`), removed (`GONE`), or
 * the sequence number was never used or was dropped by a compaction (`EMPTY`).
 */
export class SeqArrays {
  static readonly UNWRITTEN = -1
  static readonly GONE = -2
  static readonly EMPTY = -3

  #offsets: Float64Array[] = []
  #lengths: Uint32Array[] = []
  #next = 0

  /** One past the highest sequence number in use. */
  get next(): number {
    return this.#next
  }

  /** A new sequence number, not yet written. */
  push(): number {
    const seq = this.#next
    this.ensure(seq)
    this.setOffset(seq, SeqArrays.UNWRITTEN, 0)
    return seq
  }

  /** Makes room for `seq` (replay may meet them out of order). */
  ensure(seq: number): void {
    while (this.#offsets.length <= seq >> CHUNK_BITS) {
      this.#offsets.push(new Float64Array(CHUNK).fill(SeqArrays.EMPTY))
      this.#lengths.push(new Uint32Array(CHUNK))
    }
    if (seq >= this.#next) this.#next = seq + 1
  }

  offset(seq: number): number {
    return seq < this.#next ? this.#offsets[seq >> CHUNK_BITS][seq & MASK] : SeqArrays.EMPTY
  }

  length(seq: number): number {
    return this.#lengths[seq >> CHUNK_BITS]?.[seq & MASK] ?? 0
  }

  setOffset(seq: number, offset: number, length: number): void {
    this.#offsets[seq >> CHUNK_BITS][seq & MASK] = offset
    this.#lengths[seq >> CHUNK_BITS][seq & MASK] = length
  }

  /** The chunks as they are (views, not copies: a checkpoint writes them synchronously). */
  dump(): { offsets: Float64Array[]; lengths: Uint32Array[]; next: number } {
    return { offsets: this.#offsets, lengths: this.#lengths, next: this.#next }
  }

  /** From a checkpoint's chunks (views into its buffer: nothing is copied at resume). */
  static restore(data: { offsets: Float64Array[]; lengths: Uint32Array[]; next: number }): SeqArrays {
    const arrays = new SeqArrays()
    arrays.#offsets = data.offsets
    arrays.#lengths = data.lengths
    arrays.#next = data.next
    return arrays
  }

  static readonly CHUNK = CHUNK
}
