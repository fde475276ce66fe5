/** Wrong admin-token guesses one client may make at once (`burst`), and how fast that allowance comes back. */
export interface GuessLimit {
  burst: number
  per_second: number
}

/** The default: five wrong guesses at once, then two a second. */
export const GUESS_LIMIT: GuessLimit = { burst: 5, per_second: 2 }
// Clients remembered at once; beyond it the ones that have long stopped guessing are forgotten first.
const MAX_CLIENTS = 10_000

interface Bucket {
  tokens: number
  at: number
}

/**
 * A token bucket per client (its socket address) for wrong control-plane credentials (issue 33):
 * at most `limit.burst` wrong guesses at once, then `limit.per_second`. A client with no guess
 * left is refused before its credential is compared, so a right token sent among wrong ones does
 * not tell a guessing loop which one was right. Memory is bounded by `MAX_CLIENTS`.
 */
export class GuessLimiter {
  readonly #buckets = new Map<string, Bucket>()
  readonly #now: () => number
  readonly #limit: GuessLimit

  constructor(limit: GuessLimit = GUESS_LIMIT, now: () => number = Date.now) {
    this.#limit = limit
    this.#now = now
  }

  /** Clients remembered now (bounded). */
  get size(): number {
    return this.#buckets.size
  }

  /** Seconds until `client` may guess again; 0 when it may now. Spends nothing. */
  retryAfter(client: string): number {
    const bucket = this.#refilled(client)
    return bucket.tokens >= 1 ? 0 : Math.ceil((1 - bucket.tokens) / this.#limit.per_second)
  }

  /** Records one wrong guess by `client`. */
  spend(client: string): void {
    const bucket = this.#refilled(client)
    this.#buckets.delete(client)
    this.#buckets.set(client, { tokens: Math.max(0, bucket.tokens - 1), at: bucket.at })
    if (this.#buckets.size > MAX_CLIENTS) this.#forget()
  }

  #refilled(client: string): Bucket {
    const now = this.#now()
    const bucket = this.#buckets.get(client)
    if (!bucket) return { tokens: this.#limit.burst, at: now }
    const tokens = Math.min(this.#limit.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.#limit.per_second)
    return { tokens, at: now }
  }

  // Full buckets carry no information; if still too many, the least recent tenth goes (amortised: not one per guess).
  #forget(): void {
    for (const client of this.#buckets.keys()) if (this.#refilled(client).tokens >= this.#limit.burst) this.#buckets.delete(client)
    const keep = Math.floor(MAX_CLIENTS * 0.9)
    for (const client of this.#buckets.keys()) {
      if (this.#buckets.size <= keep) break
      this.#buckets.delete(client)
    }
  }
}
