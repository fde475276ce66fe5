import type { JournalEntry, JournalQuery, WorldKey } from '../support/wire.js'

/** A control-plane call that the sandbox refused; carries the `{error, code}` body. */
export class ControlError extends Error {
  readonly status: number
  readonly code: string | undefined
  readonly body: unknown

  constructor(status: number, body: unknown) {
    const b = body as { error?: string; code?: string } | null
    super(`control plane answered ${status}: ${b?.error ?? JSON.stringify(body)}`)
    this.status = status
    this.code = b?.code
    this.body = body
  }
}

/** `GET|POST|DELETE /_sandbox/workspaces/{id}/clock` (issue 19). */
export interface WorkspaceClock {
  workspace_id: string
  /** True when the workspace has its own clock; false: it reads the sandbox clock. */
  own: boolean
  now: string
  frozen: boolean
  /** Milliseconds ahead of the sandbox clock (negative: behind). */
  offset_ms: number
}

/** A landing page as `GET /api/v1/landing-pages` and `/_sandbox/workspaces/{id}/landing-pages` list it. */
export interface LandingPageRow {
  page_id: string
  title: string
  slug: string
  url: string
  status: string
  [field: string]: unknown
}

/**
 * A typed client for `/_sandbox` (DESIGN "Control plane"), usable in-process or against a running
 * sandbox. Every method is one HTTP call, so it behaves exactly like curl would.
 */
export class ControlClient {
  readonly #base: string
  readonly #token: string | null

  constructor(baseUrl: string, adminToken: string | null = null) {
    this.#base = `${baseUrl.replace(/\/$/, '')}/_sandbox`
    this.#token = adminToken
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {}
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (this.#token) headers['x-sandbox-admin'] = this.#token
    const res = await fetch(`${this.#base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await res.text()
    const parsed = text ? JSON.parse(text) : null
    if (!res.ok) throw new ControlError(res.status, parsed)
    return parsed as T
  }

  reset(world?: string, seed?: number): Promise<{ world: string; seed: number; keys: WorldKey[] }> {
    return this.request('POST', '/reset', { ...(world ? { world } : {}), ...(seed === undefined ? {} : { seed }) })
  }

  clock(): Promise<{ now: string; frozen: boolean; offset_ms: number }> {
    return this.request('GET', '/clock')
  }

  /** Advances sandbox time by a duration such as `31m` or `72h`. */
  advanceClock(duration: string | number): Promise<{ now: string; frozen: boolean; offset_ms: number }> {
    return this.request('POST', '/clock', { advance: duration })
  }

  setClock(at: string): Promise<{ now: string }> {
    return this.request('POST', '/clock', { set: at })
  }

  freezeClock(frozen = true): Promise<{ now: string; frozen: boolean }> {
    return this.request('POST', '/clock', { freeze: frozen })
  }

  /** A workspace's clock (issue 19): its own when `own`, else the sandbox clock's reading. 404 for an unknown workspace. */
  workspaceClock(workspaceId: string): Promise<WorkspaceClock> {
    return this.request('GET', `/workspaces/${encodeURIComponent(workspaceId)}/clock`)
  }

  /** Gives the workspace its own clock (if it has none) and applies `advance`, `set`, `freeze` as `POST /_sandbox/clock` does. */
  changeWorkspaceClock(workspaceId: string, change: { advance?: string | number; set?: string; freeze?: boolean }): Promise<WorkspaceClock> {
    return this.request('POST', `/workspaces/${encodeURIComponent(workspaceId)}/clock`, change)
  }

  /** Drops the workspace's own clock: it reads the sandbox clock again. */
  releaseWorkspaceClock(workspaceId: string): Promise<WorkspaceClock> {
    return this.request('DELETE', `/workspaces/${encodeURIComponent(workspaceId)}/clock`)
  }

  /** A workspace's landing pages, as `GET /api/v1/landing-pages` lists them (issue 20). 404 for an unknown workspace. */
  landingPages(workspaceId: string): Promise<{ workspace_id: string; landing_pages: LandingPageRow[]; count: number }> {
    return this.request('GET', `/workspaces/${encodeURIComponent(workspaceId)}/landing-pages`)
  }

  /** Sets a landing page's title on every surface (REST, MCP); `null` restores the generated title. 404 for an unknown page. */
  setLandingPageTitle(workspaceId: string, pageId: string, title: string | null): Promise<LandingPageRow> {
    return this.request('PATCH', `/workspaces/${encodeURIComponent(workspaceId)}/landing-pages/${encodeURIComponent(pageId)}`, { title })
  }

  /** Seeds an independent copy of a world beside the state (`POST /_sandbox/world-copies`); key values are shown once. */
  copyWorld(world?: string, options: { clocks?: boolean } = {}): Promise<{ world: string; suffix: string; ids: Record<string, string>; workspaces: string[]; keys: WorldKey[] }> {
    return this.request('POST', '/world-copies', { ...(world ? { world } : {}), ...options })
  }

  /** Removes a world copy's rows (`DELETE /_sandbox/world-copies/{suffix}`); its history stays. */
  removeWorldCopy(suffix: string): Promise<{ suffix: string; removed: Record<string, number> }> {
    return this.request('DELETE', `/world-copies/${encodeURIComponent(suffix)}`)
  }

  async journal(query: JournalQuery = {}): Promise<JournalEntry[]> {
    const page = await this.request<{ entries: JournalEntry[] }>('GET', `/journal${queryString(query)}`)
    return page.entries
  }

  /** The sequence number of the last exchange recorded (0 before any): a scenario's starting point. */
  async journalLastSeq(): Promise<number> {
    return (await this.request<{ last_seq: number }>('GET', '/journal?limit=1')).last_seq
  }

  clearJournal(): Promise<unknown> {
    return this.request('DELETE', '/journal')
  }

  /** Replaces a workspace's safety policy; fields left out take the default (GATE-02, GATE-03). */
  setPolicy(workspaceId: string, policy: Record<string, unknown>): Promise<{ workspace_id: string; policy: Record<string, unknown> }> {
    return this.request('PUT', `/workspaces/${encodeURIComponent(workspaceId)}/policy`, policy)
  }

  /** The audit log, newest first (`workspace_id`, `status`, `decision`, `script`, `key_prefix`, `since`, `limit`, `offset`). */
  audit(query: Record<string, string | number> = {}): Promise<{ entries: Array<Record<string, unknown> & { audit_id: string; status: string }>; total: number }> {
    return this.request('GET', `/audit${queryString(query)}`)
  }

  /** Approves a held write as a named reviewer; it runs once with its reviewed args. */
  approve(auditId: string, reviewer: string): Promise<{ status: string; audit_id: string; result?: unknown }> {
    return this.request('POST', `/reviews/${encodeURIComponent(auditId)}/approve`, { reviewer })
  }

  reject(auditId: string, reviewer: string): Promise<{ status: string; audit_id: string }> {
    return this.request('POST', `/reviews/${encodeURIComponent(auditId)}/reject`, { reviewer })
  }

  /** E-mails the sandbox "sent" (connection requests carry a fresh connect link). */
  outbox(query: { workspace_id?: string; to?: string; request_id?: string } = {}): Promise<{ mails: Array<{ to: string; subject: string; body: string; link: string; request_id: string }> }> {
    return this.request('GET', `/outbox${queryString(query)}`)
  }

  mintKey(input: { user_id: string; workspace_id?: string | null; scopes: string[]; name?: string; expires_in_days?: number }): Promise<{ id: string; key: string; prefix: string }> {
    return this.request('POST', '/keys', input)
  }

  /** Adds a scripted fault (docs/control-plane.md "Scripted faults"), e.g. `{match: {script_name}, sequence: [{status: 429}, {pass: true}]}`. */
  addFault(rule: Record<string, unknown>): Promise<{ id: string; hits: number; exhausted: boolean }> {
    return this.request('POST', '/faults', rule)
  }

  faults(): Promise<{ faults: Array<{ id: string; hits: number; exhausted: boolean; next_step: number | null }> }> {
    return this.request('GET', '/faults')
  }

  clearFaults(): Promise<{ removed: number }> {
    return this.request('DELETE', '/faults')
  }

  /** Sets a workspace's credit balance and/or payment method (a ledger `adjustment`). */
  setCredits(workspaceId: string, credits: { balance?: number; payment_method?: boolean }): Promise<{ balance: number; payment_method: boolean }> {
    return this.request('PUT', `/workspaces/${encodeURIComponent(workspaceId)}/credits`, credits)
  }

  /** Sets token-bucket limits (`{capacity, refill_per_second}` or null) per key and per workspace. */
  setRateLimits(workspaceId: string, limits: { per_key?: Bucket | null; per_workspace?: Bucket | null }): Promise<{ per_key: Bucket | null; per_workspace: Bucket | null }> {
    return this.request('PUT', `/workspaces/${encodeURIComponent(workspaceId)}/rate-limits`, limits)
  }
}

// `?a=1&b=2`, leaving out undefined values; empty when nothing is left.
function queryString(query: object): string {
  const qs = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))
  return qs.size ? `?${qs}` : ''
}

interface Bucket {
  capacity: number
  refill_per_second: number
}
