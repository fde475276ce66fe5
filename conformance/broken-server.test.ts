import { describe, expect, it } from 'vitest'
import type { Transform } from './forwarder.js'
import type { TargetFactory } from './targets.js'
import { startForwarder } from './forwarder.js'
import { makeTarget } from './targets.js'
import { runScenarios } from './runner.js'

const PATHS = ['auth', 'connections', 'dispatch', 'errors', 'gate', 'key', 'rest'].map((d) => `scenarios/${d}`)

/** The in-process sandbox behind a forwarder that rewrites its answers: a deliberately wrong server. */
function brokenSandbox(transform: Transform): TargetFactory {
  const inner = makeTarget({ kind: 'sandbox' })
  return {
    ...inner,
    describe: 'deliberately broken sandbox',
    async open(scenario) {
      const target = await inner.open(scenario)
      const [base, api] = await Promise.all([startForwarder(() => target.baseUrl, transform), startForwarder(() => target.apiUrl, transform)])
      return {
        ...target,
        baseUrl: base.url,
        apiUrl: api.url,
        close: async () => {
          await Promise.all([base.close(), api.close()])
          await target.close()
        },
      }
    },
  }
}

async function failing(transform: Transform, paths = PATHS): Promise<string[]> {
  const run = await runScenarios({ paths, target: brokenSandbox(transform), baseline: null })
  expect(run.summary.passed).toBeGreaterThan(paths === PATHS ? 20 : 3)
  return run.scenarios.filter((r) => r.outcome === 'failed').map((r) => r.id).sort()
}

/** Adds keys to every key listing: what other users of a shared target do in the meantime. */
function keyListing(extra: (names: string[]) => { name: string }[]): Transform {
  const refused: string[] = []
  return (req, res) => {
    if (req.method === 'POST' && req.path === '/api/v1/keys' && res.status >= 400) refused.push(String((JSON.parse(req.body || '{}') as { name?: unknown }).name))
    if (req.method !== 'GET' || req.path !== '/api/v1/keys' || res.status !== 200) return res
    const body = JSON.parse(res.body) as { keys: object[]; count: number }
    // Shaped like a key the caller can already see (same workspace, same fields): only id and name differ.
    const added = body.keys.length ? extra(refused).map((k, i) => ({ ...body.keys[0], id: `key_extra${i}`, ...k })) : []
    return { ...res, body: JSON.stringify({ ...body, keys: [...added, ...body.keys], count: body.count + added.length }) }
  }
}

describe('the runner catches a broken server', () => {
  it('a held write answered 200 fails exactly the scenarios that submit held writes', async () => {
    const ids = await failing((_req, res) => (res.status === 202 ? { ...res, status: 200 } : res))
    expect(ids).toEqual([
      'errors.held-write-charged-on-approval',
      'gate.budget-increase-thresholds',
      'gate.default-policy',
      'gate.expired-review-stays-expired',
      'gate.held-write-202',
      'gate.held-write-approved-runs-once',
      'gate.no-approval-by-own-user',
      'gate.no-self-approval',
      'gate.review-expiry-boundary',
      'gate.review-outcomes-in-audit',
      'key.isolation-audit-and-requests',
      'rest.backend-held-by-policy',
      'rest.metrics-over-sandbox-time',
      // its teardown re-enables the campaign, a held write
      'rest.pause-and-budget-gated',
    ])
  }, 120_000)

  it('a key value leaking into /v1/me fails exactly the scenarios that call it with a secret key', async () => {
    const ids = await failing((req, res) => {
      if (req.path !== '/v1/me' || res.status !== 200) return res
      // Echoes the credential it was sent, the classic way a key value leaks into a response.
      const credential = (req.headers.authorization ?? req.headers['x-service-key'] ?? '').replace(/^Bearer /, '')
      return { ...res, body: res.body.replace(/^\{/, `{"debug_credential":${JSON.stringify(credential)},`) }
    })
    expect(ids).toEqual([
      'key.child-bound-to-parent',
      'key.expired',
      'key.expiry-boundary',
      'key.format',
      'key.journal-masks-values',
      'key.no-cross-workspace',
      'key.revoke',
      'key.revoked-parent-child',
      'key.value-shown-once',
    ])
  }, 120_000)

  it('a refused key creation that creates the key anyway fails exactly the scenarios that refuse one', async () => {
    const ids = await failing(keyListing((refused) => refused.map((name) => ({ name }))), ['scenarios/key'])
    expect(ids).toEqual(['key.child-scopes-subset', 'key.expiry-bounds', 'key.grandchild-scope-escalation', 'key.validated-before-key'])
  }, 120_000)

  it('keys other users create meanwhile (a shared target) fail no key scenario', async () => {
    let n = 0
    const ids = await failing(keyListing(() => [{ name: `neighbour-${n++}` }]), ['scenarios/key'])
    expect(ids).toEqual([])
  }, 120_000)

  it('a 429 without Retry-After fails exactly the rate-limit scenarios', async () => {
    const ids = await failing((_req, res) => {
      if (res.status !== 429) return res
      const { 'retry-after': _drop, ...headers } = res.headers
      return { ...res, headers }
    })
    expect(ids).toEqual(['errors.fault-on-flag-value', 'errors.limits-per-workspace', 'errors.rate-limit-retry-after', 'errors.retry-after-countdown', 'errors.scripted-429-honoured'])
  }, 120_000)
})

