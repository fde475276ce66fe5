/**
 * A small REST client of the service with the spec's SDK behaviour (SDK-01, SDK-02, SDK-05):
 * `execute(script, argsMap, platform)` turns `snake_case` keys into `--kebab-case` flags in order,
 * posts to the dispatcher with `Authorization: Bearer`, returns every 2xx body (202 included) as data
 * and raises a `ServiceError` carrying status and code for anything else. Retries and timeouts
 * (SDK-03, SDK-04) are a later layer; this one does one request per call.
 */

/** A non-2xx answer of the service, or a body that is not JSON. */
export class ServiceError extends Error {
  readonly status: number
  readonly code: string
  readonly body: Record<string, unknown>

  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`)
    this.name = 'ServiceError'
    this.status = status
    this.code = typeof body.code === 'string' ? body.code : `HTTP_${status}`
    this.body = body
  }
}

export interface RestClientOptions {
  apiKey: string
  /** `{base_url}`: dispatcher, landing pages. */
  baseUrl: string
  /** `{api_url}`: `/v1/*` and the artifact endpoint. */
  apiUrl: string
  fetch?: typeof fetch
}

export type ArgValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>
export type ArgsMap = Record<string, ArgValue>

/**
 * `{days: 7, campaign_id: 'c1'}` → `['--days', '7', '--campaign-id', 'c1']` (SDK-01): keys keep their
 * order; `true` is a bare flag, `false`/null/undefined are left out, arrays repeat the flag.
 */
export function toFlags(args: ArgsMap): string[] {
  const out: string[] = []
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null || value === false) continue
    const flag = `--${key.replace(/_/g, '-')}`
    if (value === true) out.push(flag)
    else if (Array.isArray(value)) for (const item of value) out.push(flag, String(item))
    else out.push(flag, String(value))
  }
  return out
}

export class RestClient {
  readonly #options: RestClientOptions
  readonly #fetch: typeof fetch

  constructor(options: RestClientOptions) {
    this.#options = { ...options, baseUrl: trimSlash(options.baseUrl), apiUrl: trimSlash(options.apiUrl) }
    this.#fetch = options.fetch ?? fetch
  }

  /** Runs a script with an args map (SDK-01, SDK-02). */
  execute(script: string, args: ArgsMap = {}, platform?: string): Promise<Record<string, unknown>> {
    return this.run(script, toFlags(args), platform)
  }

  /** Runs a script with its flags already as an ordered list (DISP-01). */
  run(script: string, args: string[] = [], platform?: string): Promise<Record<string, unknown>> {
    const body = { script_name: script, args, ...(platform ? { platform } : {}) }
    return this.request('POST', `${this.#options.baseUrl}/api/v1/tools/run`, body)
  }

  /** GET a path on the base host, e.g. `/api/v1/landing-pages`. */
  getBase(path: string): Promise<Record<string, unknown>> {
    return this.request('GET', `${this.#options.baseUrl}${path}`)
  }

  /** GET a path on the api host, e.g. `/v1/credits`. */
  getApi(path: string): Promise<Record<string, unknown>> {
    return this.request('GET', `${this.#options.apiUrl}${path}`)
  }

  /** Stages an audience artifact; this endpoint takes `X-Service-Key` only (AUTH-02, DISP-09). */
  stageAudienceArtifact(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.request('POST', `${this.#options.apiUrl}/artifacts/audience-sync-input`, body, { 'x-service-key': this.#options.apiKey })
  }

  async request(method: string, url: string, body?: unknown, auth?: Record<string, string>): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = auth ?? { authorization: `Bearer ${this.#options.apiKey}` }
    headers.accept = 'application/json'
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await this.#fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const parsed = parseBody(await res.text())
    if (res.status >= 200 && res.status < 300 && parsed.ok) return parsed.value
    throw new ServiceError(res.status, parsed.ok ? parsed.value : { error: `Expected a JSON object, got: ${parsed.text.slice(0, 200)}`, code: 'INVALID_RESPONSE' })
  }
}

function parseBody(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; text: string } {
  if (!text) return { ok: true, value: {} }
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> }
  } catch {
    // Not JSON: reported as INVALID_RESPONSE below.
  }
  return { ok: false, text }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}
