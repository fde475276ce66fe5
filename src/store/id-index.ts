/**
 * A compact map from row id to its insertion sequence number, for history tables whose rows live
 * on disk. Two typed arrays (a 32-bit hash and the sequence number, open addressing, linear
 * probing) cost ≈ 11 bytes a row where a `Map<string, number>` costs ≈ 70, so the index of a
 * million rows stays ≈ 11 MB. A hash match is only a candidate: the caller checks the row's id.
 */
export class IdIndex {
  #hashes: Uint32Array = new Uint32Array(1024)
  // seq + 1; 0 marks an empty slot.
  #seqs: Int32Array = new Int32Array(1024)
  #size = 0

  get size(): number {
    return this.#size
  }

  /** Records that `id` lives at `seq` (a later call for the same id adds a second candidate; lookups prefer the newest). */
  add(id: string, seq: number): void {
    if ((this.#size + 1) * 4 > this.#seqs.length * 3) this.#grow()
    this.#put(hashId(id), seq)
    this.#size++
  }

  /** Candidate sequence numbers for `id`, newest first; `accept` says whether the row at a seq really is `id`. */
  find(id: string, accept: (seq: number) => boolean): number | undefined {
    const hash = hashId(id)
    const mask = this.#seqs.length - 1
    let best: number | undefined
    for (let slot = hash & mask; this.#seqs[slot] !== 0; slot = (slot + 1) & mask) {
      const seq = this.#seqs[slot] - 1
      if (this.#hashes[slot] === hash && (best === undefined || seq > best) && accept(seq)) best = seq
    }
    return best
  }

  clear(): void {
    this.#hashes = new Uint32Array(1024)
    this.#seqs = new Int32Array(1024)
    this.#size = 0
  }

  /** The arrays themselves (not copies), for a checkpoint written synchronously. */
  dump(): { hashes: Uint32Array; seqs: Int32Array; size: number } {
    return { hashes: this.#hashes, seqs: this.#seqs, size: this.#size }
  }

  static restore(data: { hashes: Uint32Array; seqs: Int32Array; size: number }): IdIndex {
    const index = new IdIndex()
    index.#hashes = data.hashes
    index.#seqs = data.seqs
    index.#size = data.size
    return index
  }

  #put(hash: number, seq: number): void {
    const mask = this.#seqs.length - 1
    let slot = hash & mask
    while (this.#seqs[slot] !== 0) slot = (slot + 1) & mask
    this.#hashes[slot] = hash
    this.#seqs[slot] = seq + 1
  }

  #grow(): void {
    const hashes = this.#hashes
    const seqs = this.#seqs
    this.#hashes = new Uint32Array(seqs.length * 2)
    this.#seqs = new Int32Array(seqs.length * 2)
    for (let i = 0; i < seqs.length; i++) if (seqs[i] !== 0) this.#put(hashes[i], seqs[i] - 1)
  }
}

/** FNV-1a over the id's UTF-16 code units. */
export function hashId(id: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
