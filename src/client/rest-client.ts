/**
 * A small REST client of the service with the spec's SDK behaviour (§4 "SDK behaviour", §8):
 * `execute(script, argsMap, platform)` turns `snake_case` keys into `--kebab-case` flags in order
 * (SDK-01), returns every 2xx body (202 included) as data and raises a `ServiceError` carrying
 * status, code and message for anything else (SDK-02), retries only 429 and network/timeout failures
 * at most 3 times with backoff 1 s doubling to a 10 s cap, honouring `Retry-After` (SDK-03), gives
 * up an attempt after 30 s (SDK-04) and always sends `Authorization: Bearer` (SDK-05).
 */
import type { ArgsMap } from './flags.js'
import { daysOf, toFlags } from './flags.js'
import { ServiceError } from './errors.js'
import type { RetryPolicy } from './retry-policy.js'
import { DEFAULT_RETRY_POLICY, DEFAULT_TIMEOUT_MS, isRetryable, parseRetryAfter, retryDelayMs } from './retry-policy.js'

/** Waiting, injectable so tests run without real time passing. */
export interface ClientTimers {
  /** Waits before a retry. */
  sleep(ms: number): Promise<void>
  /** Calls `fn` after `ms` (the per-attempt timeout); returns a cancel function. */
  after(ms: number, fn: () => void): () => void
  /** Wall time in ms, for `Retry-After` dates. */
  now(): number
}

export const REAL_TIMERS: ClientTimers = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms)
    return () => clearTimeout(timer)
  },
  now: () => Date.now(),
}

export interface RestClientOptions {
  apiKey: string
  /** `{base_url}`: dispatcher, landing pages. */
  baseUrl: string
  /** `{api_url}`: `/v1/*` and the artifact endpoint. */
  apiUrl: string
  fetch?: typeof fetch
  /** Per attempt (default 30 000 ms, SDK-04). */
  timeoutMs?: number
  /** Retry settings (default: 3 retries, 1 s base, 10 s cap, SDK-03). */
  retry?: Partial<RetryPolicy>
  timers?: ClientTimers
  /** Called before each retry with the wait chosen (for logs and tests). */
  onRetry?: (info: { retry: number; delayMs: number; error: ServiceError }) => void
}

export type Result = Record<string, unknown>

export class RestClient {
  readonly #options: RestClientOptions
  readonly #fetch: typeof fetch
  readonly #policy: RetryPolicy
  readonly #timers: ClientTimers
  readonly #timeoutMs: number

  constructor(options: RestClientOptions) {
    this.#options = { ...options, baseUrl: trimSlash(options.baseUrl), apiUrl: trimSlash(options.apiUrl) }
    this.#fetch = options.fetch ?? fetch
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    this.#timers = options.timers ?? REAL_TIMERS
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  /** Runs a script with an args map (SDK-01, SDK-02). */
  execute(script: string, args: ArgsMap = {}, platform?: string): Promise<Result> {
    return this.run(script, toFlags(args), platform)
  }

  /** Runs a script with its flags already as an ordered list (DISP-01); `dry_run` decides and prices a write only. */
  run(script: string, args: string[] = [], platform?: string, options: { dry_run?: boolean } = {}): Promise<Result> {
    const body = { script_name: script, args, ...(platform ? { platform } : {}), ...(options.dry_run ? { dry_run: true } : {}) }
    return this.request('POST', `${this.#options.baseUrl}/api/v1/tools/run`, body)
  }

  /** Pauses a campaign on the given platform: `pause_campaign --campaign-id` (SDK-08 done right). */
  async pause(campaignId: string, platform: string): Promise<Result> {
    need(campaignId, 'campaign_id')
    need(platform, 'platform')
    return this.execute('pause_campaign', { campaign_id: campaignId }, platform)
  }

  /** Sets a daily budget: `update_campaign_budget --campaign-id --daily-budget` on the given platform (SDK-08 done right). */
  async updateBudget(campaignId: string, dailyBudget: number, platform: string): Promise<Result> {
    need(campaignId, 'campaign_id')
    need(platform, 'platform')
    if (typeof dailyBudget !== 'number' || !Number.isFinite(dailyBudget) || dailyBudget <= 0) throw ServiceError.validation('daily_budget must be a positive number')
    return this.execute('update_campaign_budget', { campaign_id: campaignId, daily_budget: dailyBudget }, platform)
  }

  /** Google Ads performance with the canonical script (SDK-07); `LAST_7_DAYS` → `--days 7` (SDK-06). */
  async performance(options: { dateRange: string | number; campaignId?: string }): Promise<Result> {
    const days = daysOf(options.dateRange)
    if (days === null) throw ServiceError.validation(`date range ${JSON.stringify(options.dateRange)} is not LAST_<N>_DAYS, TODAY, YESTERDAY or a number of days`)
    return this.execute('pull_google_ads', { days, campaign_id: options.campaignId })
  }

  /** GET a path on the base host, e.g. `/api/v1/landing-pages`. */
  getBase(path: string): Promise<Result> {
    return this.request('GET', `${this.#options.baseUrl}${path}`)
  }

  /** GET a path on the api host, e.g. `/v1/credits`. */
  getApi(path: string): Promise<Result> {
    return this.request('GET', `${this.#options.apiUrl}${path}`)
  }

  /** Stages an audience artifact; this endpoint takes `X-Service-Key` only (AUTH-02, DISP-09). */
  stageAudienceArtifact(body: Record<string, unknown>): Promise<Result> {
    return this.request('POST', `${this.#options.apiUrl}/artifacts/audience-sync-input`, body, { 'x-service-key': this.#options.apiKey })
  }

  /** One call with the retry policy: attempts until success, a non-retryable error or the retry limit (SDK-03). */
  async request(method: string, url: string, body?: unknown, auth?: Record<string, string>): Promise<Result> {
    for (let retry = 0; ; retry++) {
      try {
        return await this.#attempt(method, url, body, auth)
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error
        error.attempts = retry + 1
        if (!isRetryable(error) || retry >= this.#policy.maxRetries) throw error
        const delayMs = retryDelayMs(retry + 1, retryAfterOf(error, this.#timers.now()), this.#policy)
        this.#options.onRetry?.({ retry: retry + 1, delayMs, error })
        await this.#timers.sleep(delayMs)
      }
    }
  }

  async #attempt(method: string, url: string, body: unknown, auth?: Record<string, string>): Promise<Result> {
    const headers: Record<string, string> = { ...(auth ?? { authorization: `Bearer ${this.#options.apiKey}` }), accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const controller = new AbortController()
    let timedOut = false
    const cancel = this.#timers.after(this.#timeoutMs, () => {
      timedOut = true
      controller.abort()
    })
    try {
      const res = await this.#fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: controller.signal })
      const parsed = parseBody(await res.text())
      if (res.status >= 200 && res.status < 300 && parsed.ok) return parsed.value
      const error = new ServiceError(res.status, parsed.ok ? parsed.value : { error: `Expected a JSON object, got: ${parsed.text.slice(0, 200)}`, code: 'INVALID_RESPONSE' })
      error.retryAfter = res.headers.get('retry-after')
      error.requestId = res.headers.get('request-id') ?? error.requestId
      throw error
    } catch (error) {
      if (error instanceof ServiceError) throw error
      if (timedOut) throw ServiceError.transport('timeout', `No answer within ${this.#timeoutMs} ms: ${method} ${url}`, error)
      throw ServiceError.transport('network', `Network error: ${method} ${url}: ${describe(error)}`, error)
    } finally {
      cancel()
    }
  }
}

function retryAfterOf(error: ServiceError, now: number): number | null {
  return error.status === 429 ? parseRetryAfter(error.retryAfter, now) : null
}

function need(value: unknown, name: string): void {
  if (typeof value !== 'string' || value.trim() === '') throw ServiceError.validation(`${name} is required`)
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause
  const text = error instanceof Error ? error.message : String(error)
  return cause instanceof Error ? `${text} (${cause.message})` : text
}

function parseBody(text: string): { ok: true; value: Result } | { ok: false; text: string } {
  if (!text) return { ok: true, value: {} }
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value: value as Result }
  } catch {
    // Not JSON: reported as INVALID_RESPONSE by the caller.
  }
  return { ok: false, text }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}
