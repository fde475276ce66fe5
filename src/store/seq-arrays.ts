/**
 * Where the latest version of each history row sits in the state log, by insertion sequence
 * number: a byte offset and a line length in two typed arrays (12 bytes a row, outside the JS heap's
 * object graph). Negative offsets: the row is only in memory (`UNWRITTEN`), removed (`GONE`), or
 * the sequence number was never used or was dropped by a compaction (`EMPTY`).
 */
export class SeqArrays {
  static readonly UNWRITTEN = -1
  static readonly GONE = -2
  static readonly EMPTY = -3

  #offsets = new Float64Array(1024).fill(SeqArrays.EMPTY)
  #lengths = new Uint32Array(1024)
  #next = 0

  /** One past the highest sequence number in use. */
  get next(): number {
    return this.#next
  }

  /** A new sequence number, not yet written. */
  push(): number {
    const seq = this.#next
    this.ensure(seq)
    this.#offsets[seq] = SeqArrays.UNWRITTEN
    return seq
  }

  /** Makes room for `seq` (replay may meet them out of order). */
  ensure(seq: number): void {
    if (seq >= this.#offsets.length) {
      let size = this.#offsets.length
      while (size <= seq) size *= 2
      const offsets = new Float64Array(size).fill(SeqArrays.EMPTY)
      offsets.set(this.#offsets)
      const lengths = new Uint32Array(size)
      lengths.set(this.#lengths)
      this.#offsets = offsets
      this.#lengths = lengths
    }
    if (seq >= this.#next) this.#next = seq + 1
  }

  offset(seq: number): number {
    return seq < this.#next ? this.#offsets[seq] : SeqArrays.EMPTY
  }

  length(seq: number): number {
    return this.#lengths[seq] ?? 0
  }

  setOffset(seq: number, offset: number, length: number): void {
    this.#offsets[seq] = offset
    this.#lengths[seq] = length
  }

  /** Copies for a checkpoint (only the used part). */
  dump(): { offsets: Float64Array; lengths: Uint32Array; next: number } {
    return { offsets: this.#offsets.slice(0, this.#next), lengths: this.#lengths.slice(0, this.#next), next: this.#next }
  }

  static restore(data: { offsets: Float64Array; lengths: Uint32Array; next: number }): SeqArrays {
    const arrays = new SeqArrays()
    arrays.ensure(Math.max(0, data.next - 1))
    arrays.#offsets.set(data.offsets)
    arrays.#lengths.set(data.lengths)
    arrays.#next = data.next
    return arrays
  }
}
