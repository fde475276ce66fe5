import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FuzzTarget } from './target.js'
import { startFuzzTarget } from './target.js'
import type { RawText } from './raw-requests.js'
import { checkRaw, rawRequest } from './raw-requests.js'

/**
 * Raw requests on a socket, both hosts (issue 36): an answer always comes, never a 5xx, every
 * refusal is JSON `{error, code}` (or its documented framing), and a refused request changes no
 * table. The seed is pinned (`FC_SEED`, src/test-support/fast-check-seed.ts); `RAW_FUZZ_RUNS` widens it.
 */
let target: FuzzTarget
beforeAll(async () => {
  target = await startFuzzTarget()
})
afterAll(async () => target.close())

const exchange = (raw: RawText) => checkRaw(target, raw)

describe('raw requests Node\'s client would never send', () => {
  it.each([
    ['GET without Host', 'GET /v1/me HTTP/1.1\r\n\r\n'],
    ['POST without Host, with a key and a body', 'POST /api/v1/tools/run HTTP/1.1\r\nAuthorization: Bearer svc_test_ownerAcme00000000000000000000000\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
    ['/mcp without Host', 'POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
    ['the control plane without Host', 'GET /_sandbox/state HTTP/1.1\r\n\r\n'],
    ['CONNECT', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n'],
    ['an HTTP/2 connection preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['a header line without a colon', 'GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nBroken\r\n\r\n'],
    ['two different lengths', 'POST /api/v1/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
  ])('%s gets a JSON refusal on both hosts', async (_name, text) => {
    for (const host of ['base', 'api'] as const) expect(await exchange({ host, text })).toBeNull()
  })

  it('any raw request gets an answer below 500, JSON when it refuses, and a refusal changes nothing (seeded property)', async () => {
    await fc.assert(fc.asyncProperty(rawRequest(), async (raw) => {
      const problem = await exchange(raw)
      if (problem) throw new Error(problem)
    }), { numRuns: Number(process.env.RAW_FUZZ_RUNS ?? 300) })
  }, 60_000)
})
