/**
 * Wire shapes that both the server and the wire-only clients (src/client, conformance/, the
 * rehearsal grader) read: declared once here, so neither side imports the other's internals.
 */

/** Marks a journaled body kept only in part: its full size and the size kept, in UTF-8 bytes. */
export interface Truncation {
  bytes: number
  kept_bytes: number
}

/**
 * One recorded exchange as `GET /_sandbox/journal` returns it. Bodies are parsed JSON, or text; a
 * body kept only in part is text and carries `truncated` (absent on whole bodies).
 */
export interface JournalEntry {
  seq: number
  at: string
  sandbox_time: string
  host: 'base' | 'api'
  method: string
  path: string
  query: Record<string, unknown>
  status: number
  duration_ms: number
  key_prefix: string | null
  request: { headers: Record<string, string>; body: unknown; truncated?: Truncation }
  response: { headers: Record<string, string>; body: unknown; truncated?: Truncation }
  fault: string | null
  /** The answer's `Request-Id` (issue 19 item 2); absent in entries recorded before it existed. */
  request_id?: string | null
}

/** Filters of `GET /_sandbox/journal`. */
export interface JournalQuery {
  since?: number
  path?: string
  key_prefix?: string
  method?: string
  status?: number
  host?: 'base' | 'api'
  /** One exchange by its `Request-Id`. */
  request_id?: string
  limit?: number
}

/** A world key as printed in the banner, listed by the control plane and returned by `createSandbox()`: documented, fixed values. */
export interface WorldKey {
  name: string
  value: string
  prefix: string
  scopes: string[]
  user_id: string
  workspace_id: string | null
  description: string
}
