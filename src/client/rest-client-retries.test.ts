import { describe, expect, it } from 'vitest'
import type { ClientTimers, RestClientOptions } from './rest-client.js'
import { RestClient } from './rest-client.js'
import { ServiceError } from './errors.js'

const KEY = 'svc_test_ownerAcme00000000000000000000000'
type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop' | 'hang'

/** A scripted fetch (one answer per call, the last repeats) and timers that never really wait. */
function harness(answers: Answer[], options: Partial<RestClientOptions> = {}) {
  const calls: Array<{ url: string; init: RequestInit; body: unknown }> = []
  const sleeps: number[] = []
  const timeouts: number[] = []
  let fireTimeout: (() => void) | null = null
  const timers: ClientTimers = {
    sleep: async (ms) => void sleeps.push(ms),
    after: (ms, fn) => {
      timeouts.push(ms)
      fireTimeout = fn
      return () => { fireTimeout = null }
    },
    now: () => Date.parse('2026-01-01T00:00:00Z'),
  }
  const fakeFetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init, body: init.body ? JSON.parse(String(init.body)) : undefined })
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]
    if (answer === 'drop') throw new TypeError('fetch failed', { cause: new Error('other side closed') })
    if (answer === 'hang') {
      return new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        queueMicrotask(() => fireTimeout?.())
      })
    }
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), { status: answer.status, headers: answer.headers })
  }) as unknown as typeof fetch
  const client = new RestClient({ apiKey: KEY, baseUrl: 'http://sdk.test', apiUrl: 'http://api.sdk.test', fetch: fakeFetch, timers, ...options })
  return { client, calls, sleeps, timeouts }
}

const ok = { status: 200, body: { rows: [] } }
const limited = (retryAfter?: string): Answer => ({ status: 429, body: { error: 'slow down', code: 'RATE_LIMITED' }, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } })

describe('retry policy, driven by scripted answers (SDK-03)', () => {
  it.each<[string, Answer[], number, number[], number | 'ok']>([
    ['429 with Retry-After 1 twice, then 200', [limited('1'), limited('1'), ok], 3, [1000, 1000], 'ok'],
    ['429 without Retry-After twice, then 200', [limited(), limited(), ok], 3, [1000, 2000], 'ok'],
    ['429 without Retry-After, always', [limited()], 4, [1000, 2000, 4000], 429],
    ['429 with Retry-After 1, always', [limited('1')], 4, [1000, 1000, 1000], 429],
    ['429 with Retry-After 5 (longer than the backoff), then 200', [limited('5'), ok], 2, [5000], 'ok'],
    ['429 with a Retry-After date, then 200', [limited('Thu, 01 Jan 2026 00:00:02 GMT'), ok], 2, [2000], 'ok'],
    ['a dropped connection, then 200', ['drop', ok], 2, [1000], 'ok'],
    ['dropped connections, always', ['drop'], 4, [1000, 2000, 4000], 0],
    ['400', [{ status: 400, body: { error: 'bad', code: 'UNRECOGNIZED_ARGS' } }, ok], 1, [], 400],
    ['401', [{ status: 401, body: { error: 'no key', code: 'AUTHENTICATION_REQUIRED' } }, ok], 1, [], 401],
    ['402', [{ status: 402, body: { error: 'credit', code: 'INSUFFICIENT_CREDITS' } }, ok], 1, [], 402],
    ['403', [{ status: 403, body: { error: 'blocked', code: 'POLICY_BLOCKED', status: 'blocked' } }, ok], 1, [], 403],
    ['500', [{ status: 500, body: { error: 'oops', code: 'INTERNAL_ERROR' } }, ok], 1, [], 500],
  ])('%s → %i requests, waits %j', async (_name, answers, requests, waits, outcome) => {
    const { client, calls, sleeps } = harness(answers)
    const result = await client.execute('list_campaigns', { platform: 'google' }, 'google').catch((e: unknown) => e)
    expect(calls).toHaveLength(requests)
    expect(sleeps).toEqual(waits)
    if (outcome === 'ok') expect(result).toEqual(ok.body)
    else expect(result).toMatchObject({ status: outcome, attempts: requests })
  })

  it('caps the backoff at 10 s when more retries are configured', async () => {
    const { client, sleeps } = harness([limited()], { retry: { maxRetries: 6 } })
    await client.execute('list_campaigns').catch(() => undefined)
    expect(sleeps).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000])
  })

  it('does not retry when retries are off', async () => {
    const { client, calls } = harness([limited('1'), ok], { retry: { maxRetries: 0 } })
    await expect(client.execute('list_campaigns')).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' })
    expect(calls).toHaveLength(1)
  })

  it('sends Authorization: Bearer and nothing else on every attempt (SDK-05)', async () => {
    const { client, calls } = harness([limited('1'), 'drop', ok])
    await client.execute('list_campaigns')
    for (const call of calls) {
      const headers = call.init.headers as Record<string, string>
      expect(headers.authorization).toBe(`Bearer ${KEY}`)
      expect(Object.keys(headers).filter((h) => h.startsWith('x-'))).toEqual([])
    }
  })
})

describe('timeouts (SDK-04)', () => {
  it('gives an attempt 30 s by default and reports a timeout error with status 0', async () => {
    const { client, calls, timeouts } = harness(['hang'], { retry: { maxRetries: 0 } })
    const error = await client.execute('list_campaigns').catch((e: unknown) => e)
    expect(timeouts).toEqual([30_000])
    expect(calls).toHaveLength(1)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ kind: 'timeout', status: 0, code: 'TIMEOUT' })
  })

  it('retries a timed-out attempt, each with its own timeout', async () => {
    const { client, calls, timeouts, sleeps } = harness(['hang', ok], { timeoutMs: 500 })
    await expect(client.execute('list_campaigns')).resolves.toEqual(ok.body)
    expect(calls).toHaveLength(2)
    expect(timeouts).toEqual([500, 500])
    expect(sleeps).toEqual([1000])
  })
})

describe('results and errors (SDK-02, SDK-09)', () => {
  it('returns a held write (202) as data', async () => {
    const held = { status: 'pending_review', audit_id: 'aud_1', reviewed_args: ['--campaign-id', 'c1'] }
    const { client } = harness([{ status: 202, body: held }])
    await expect(client.execute('enable_campaign', { campaign_id: 'c1' }, 'google')).resolves.toEqual(held)
  })

  it('raises an error carrying status, code and message', async () => {
    const { client } = harness([{ status: 402, body: { error: 'Not enough credit.', code: 'INSUFFICIENT_CREDITS' } }])
    await expect(client.execute('list_campaigns')).rejects.toMatchObject({ kind: 'http', status: 402, code: 'INSUFFICIENT_CREDITS', message: 'Not enough credit.' })
  })
})

describe('helpers send the right script, flags and platform (SDK-06, SDK-07, SDK-08)', () => {
  it.each<[string, (c: RestClient) => Promise<unknown>, unknown]>([
    ['pause', (c) => c.pause('c1', 'google'), { script_name: 'pause_campaign', args: ['--campaign-id', 'c1'], platform: 'google' }],
    ['pause elsewhere', (c) => c.pause('c1', 'meta'), { script_name: 'pause_campaign', args: ['--campaign-id', 'c1'], platform: 'meta' }],
    ['updateBudget', (c) => c.updateBudget('c1', 25.5, 'google'), { script_name: 'update_campaign_budget', args: ['--campaign-id', 'c1', '--daily-budget', '25.5'], platform: 'google' }],
    ['performance', (c) => c.performance({ dateRange: 'LAST_7_DAYS' }), { script_name: 'pull_google_ads', args: ['--days', '7'] }],
    ['performance of one campaign', (c) => c.performance({ dateRange: 'LAST_30_DAYS', campaignId: 'c9' }), { script_name: 'pull_google_ads', args: ['--days', '30', '--campaign-id', 'c9'] }],
  ])('%s', async (_name, call, body) => {
    const { client, calls } = harness([ok])
    await call(client)
    expect(calls[0].url).toBe('http://sdk.test/api/v1/tools/run')
    expect(calls[0].body).toEqual(body)
  })

  it.each<[string, (c: RestClient) => Promise<unknown>]>([
    ['a budget that is not a number', (c) => c.updateBudget('c1', Number.NaN, 'google')],
    ['a missing platform', (c) => c.pause('c1', '')],
    ['an unknown date range', (c) => c.performance({ dateRange: 'THIS_QUARTER' })],
  ])('refuses %s before sending anything', async (_name, call) => {
    const { client, calls } = harness([ok])
    await expect(call(client)).rejects.toMatchObject({ kind: 'validation', status: 0, code: 'VALIDATION_ERROR' })
    expect(calls).toHaveLength(0)
  })
})
