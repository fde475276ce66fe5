/** Bytes of each arena chunk; a longer text gets a chunk of its own size. */
export const ARENA_CHUNK = 1 << 20

/** Released chunks kept for reuse, so a steady journal allocates no new memory. */
const SPARE_CHUNKS = 2

/**
 * The journal's body texts as UTF-8 bytes in large chunks outside the JavaScript heap, first in,
 * first out. A kept body lives for thousands of exchanges: as a string it survived two scavenges,
 * was copied into the old space and died there, so under load the journal's bodies were about a
 * third of what reached the old space, and a full GC came that much sooner (bench/README.md,
 * findings). Chunks hold no pointers, so the GC neither copies nor marks what is inside them.
 *
 * Positions are offsets in one growing address space; a text never spans two chunks (the unused
 * tail of a chunk is skipped). `release(position)` drops every chunk wholly before a position, so
 * the arena holds what the oldest kept entry needs and everything after it.
 */
export class JournalArena {
  #chunks: Buffer[] = []
  /** The position of each chunk's first byte. */
  #starts: number[] = []
  #spare: Buffer[] = []
  /** Bytes written into the last chunk. */
  #used = 0
  /** The position after the last byte written. */
  #end = 0

  /** The position after the last text put: with the position `put` returned, its byte range. */
  get end(): number {
    return this.#end
  }

  /** Bytes the arena's chunks take, spares included. */
  get bytes(): number {
    let total = 0
    for (const chunk of this.#chunks) total += chunk.length
    for (const chunk of this.#spare) total += chunk.length
    return total
  }

  /** Stores a text and returns its position; it ends at `end`. */
  put(text: string): number {
    if (text.length === 0) return this.#end
    let chunk = this.#chunks.at(-1)
    // A UTF-16 code unit takes at most 3 UTF-8 bytes: with that much room, no length pass is needed.
    const most = 3 * text.length
    if (!chunk || chunk.length - this.#used < most) chunk = this.#open(most)
    const at = this.#end
    const written = chunk.write(text, this.#used, 'utf8')
    this.#used += written
    this.#end += written
    return at
  }

  /** The text stored at a position, `bytes` long, while no `release` has passed it. */
  text(at: number, bytes: number): string {
    if (bytes === 0) return ''
    let i = this.#starts.length - 1
    while (i > 0 && this.#starts[i] > at) i--
    const from = at - this.#starts[i]
    return this.#chunks[i].toString('utf8', from, from + bytes)
  }

  /** Drops the chunks that end at or before `position` (the oldest kept entry's first byte). */
  release(position: number): void {
    while (this.#chunks.length > 1 && this.#starts[1] <= position) {
      const chunk = this.#chunks.shift() as Buffer
      this.#starts.shift()
      if (chunk.length === ARENA_CHUNK && this.#spare.length < SPARE_CHUNKS) this.#spare.push(chunk)
    }
  }

  /** Forgets every text and lets its memory go (positions keep growing: an old one never reads a new text). */
  clear(): void {
    this.#chunks = []
    this.#starts = []
    this.#spare = []
    this.#used = 0
  }

  #open(most: number): Buffer {
    const chunk = most <= ARENA_CHUNK ? (this.#spare.pop() ?? Buffer.allocUnsafeSlow(ARENA_CHUNK)) : Buffer.allocUnsafeSlow(most)
    this.#chunks.push(chunk)
    this.#starts.push(this.#end)
    this.#used = 0
    return chunk
  }
}
