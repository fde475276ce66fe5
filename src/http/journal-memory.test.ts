import http from 'node:http'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { ANONYMOUS_BODY_CAP } from './journal-body.js'
import { readReliabilityBlock, writeReliabilityBlock } from '../test-support/reliability-block.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const REQUESTS = 2_000
const CONCURRENCY = 4
/** Fixed bound on what the heap and array buffers (the journal's arena) may grow by after GC (without the byte bounds it grew by GBs and aborted). */
const HEAP_BOUND_MB = 150
/** Just under the 1 MB JSON limit, so every body is read and would be worth keeping. */
const BODY = Buffer.from(JSON.stringify({ script_name: 'list_campaigns', args: ['x'.repeat(900 * 1024)] }))
const TARGETS: Array<[host: 'baseUrl' | 'apiUrl', path: string]> = [['baseUrl', '/api/v1/tools/run'], ['apiUrl', '/v1/campaigns/cmp_x/pause']]

let sb: TestSandbox
// node:http sends the one Buffer as is (fetch copies it per request, doubling the test's own cost).
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(async () => {
  agent.destroy()
  await sb.close()
  if (process.env.UPDATE_RELIABILITY === '1' && figures.length) {
    writeReliabilityBlock({
      name: 'memory',
      generatedBy: 'UPDATE_RELIABILITY=1 npx vitest run src/http/journal-memory.test.ts',
      lines: [
        `${REQUESTS} anonymous POSTs of ${BODY.length} bytes, alternating the base host's dispatcher and an api-host route, ${CONCURRENCY} at a time, in process; ${new Date().toISOString().slice(0, 10)}.`,
        '',
        '| figure | value |',
        '| --- | ---: |',
        ...figures.map(([label, value]) => `| ${label} | ${value} |`),
      ],
    })
  }
})

/** What the run saw, for docs/reliability.md (`UPDATE_RELIABILITY=1`). */
const figures: Array<[string, string]> = []

function post(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': BODY.length }
    const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(BODY)
  })
}

/** The JavaScript heap after GC plus array buffers, where the journal keeps its bodies (`journal-arena.ts`). */
function heapMb(): number {
  gc()
  gc()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return (heapUsed + arrayBuffers) / 2 ** 20
}

describe('memory under hostile traffic', () => {
  it(`stays within ${HEAP_BOUND_MB} MB of heap and array buffers after ${REQUESTS} anonymous ~900 KB posts to both hosts, and still answers`, async () => {
    const before = heapMb()
    const cpu = process.cpuUsage()
    const started = performance.now()
    const statuses = new Map<number, number>()
    let next = 0
    const worker = async () => {
      while (next < REQUESTS) {
        const [host, path] = TARGETS[next++ % TARGETS.length]
        const status = await post(`${sb[host]}${path}`)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    const seconds = (performance.now() - started) / 1000
    const { user, system } = process.cpuUsage(cpu)
    const grown = heapMb() - before
    console.log(`journal memory: ${REQUESTS} posts of ${BODY.length} bytes in ${seconds.toFixed(1)} s (${((user + system) / 1e6).toFixed(1)} s CPU), heap + array buffers after GC ${before.toFixed(1)} -> ${(before + grown).toFixed(1)} MB (+${grown.toFixed(1)})`)

    figures.push(
      ['requests sent', String(REQUESTS)], ['answered 401', String(statuses.get(401) ?? 0)], ['answered 5xx', String([...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0))],
      ['heap + array buffers after GC, before (MB)', before.toFixed(1)], ['heap + array buffers after GC, after (MB)', (before + grown).toFixed(1)], ['growth (MB)', grown.toFixed(1)], ['bound asserted (MB)', String(HEAP_BOUND_MB)],
    )
    expect(Object.fromEntries(statuses)).toEqual({ 401: REQUESTS })
    expect(grown).toBeLessThan(HEAP_BOUND_MB)
    expect((await sb.api('GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
    // Whether or not the body was read before the 401, at most the anonymous cap of it is kept.
    const [last] = await sb.control.journal({ status: 401, limit: 1 })
    expect(String(last.request.body).length).toBeLessThanOrEqual(ANONYMOUS_BODY_CAP)
  }, 180_000)

  it('has the figures of a run in docs/reliability.md, within the bound', () => {
    const rows = readReliabilityBlock('memory')
    expect(rows, 'docs/reliability.md has no memory block').not.toBeNull()
    expect(Number(rows!.get('growth (MB)')?.[0])).toBeLessThan(HEAP_BOUND_MB)
    expect(rows!.get('answered 5xx')).toEqual(['0'])
  })
})
