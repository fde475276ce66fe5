import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { redactText } from './redact.js'

// A request's id is a wire fact (a header both hosts and the raw listener read), so it lives here,
// below http and runtime alike (issue 37: runtime/listen.ts no longer reaches up into http).

/** The response header that names a request (Stripe's name for it); a client may send its own. */
export const REQUEST_ID_HEADER = 'Request-Id'

// Bounded and plain, so it can be echoed in a header and searched for (sandbox decision).
const VALID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The id of a request (issue 19 item 2): the client's own `Request-Id` (or `X-Request-Id`) when it
 * is 1-128 characters of letters, digits and `. _ : -` and spells no key value, else a new
 * `req_…`. An invalid one is replaced, never echoed.
 */
export function requestIdOf(req: IncomingMessage): string {
  for (const name of ['request-id', 'x-request-id']) {
    const sent = req.headers[name]
    const value = Array.isArray(sent) ? sent[0] : sent
    // A key value sent as an id would be echoed, journaled and put in error bodies (KEY-02): replaced.
    if (value !== undefined && VALID.test(value) && redactText(value) === value) return value
  }
  return newRequestId()
}

// Random bytes are drawn in blocks: one randomBytes call per request was ≈ 4 % of a fast read's CPU (bench/README.md).
const ID_BYTES = 9
const POOL_BYTES = ID_BYTES * 512
let pool = Buffer.alloc(0)
let taken = 0

/** A fresh id (72 random bits), also for an answer to bytes Node could not parse as a request (no header to read). */
export function newRequestId(): string {
  if (taken + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES)
    taken = 0
  }
  taken += ID_BYTES
  return `req_${pool.toString('base64url', taken - ID_BYTES, taken)}`
}
