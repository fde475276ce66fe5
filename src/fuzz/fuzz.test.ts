import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_SEED, runFuzz } from './fuzz.js'
import { KNOWN_FINDINGS } from './known-findings.js'
import { parseBlock, RELIABILITY_DOC, writeBlock } from './reliability.js'

// A few thousand cases in `npm test`; `npm run fuzz -- --runs 100000` is the long run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000)
const SEED = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED)

describe('fuzzing every contract operation on both hosts and /mcp', () => {
  it(`answers ${RUNS} random requests (seed ${SEED}) without a 5xx, a hang, a malformed error, a changed refusal, a contract violation or a leaked key`, async () => {
    const figures = await runFuzz({ runs: RUNS, seed: SEED, known: KNOWN_FINDINGS })
    console.log(`fuzz: seed ${SEED}, ${figures.requests} requests, statuses ${JSON.stringify(figures.statuses)}, known findings ${JSON.stringify(figures.known)}`)
    if (process.env.UPDATE_RELIABILITY === '1') writeBlock(figures, `${new Date().toISOString().slice(0, 10)}, \`npm test\``)
    // Most requests must get past the router: a generator that only produced 404s would prove nothing.
    const reached = Object.entries(figures.statuses).filter(([s]) => s !== '404' && s !== '405').reduce((a, [, n]) => a + n, 0)
    expect(reached / figures.requests).toBeGreaterThan(0.5)
    expect(Object.keys(figures.statuses).filter((s) => s.startsWith('2')).length).toBeGreaterThan(0)
  }, 240_000)

  it('has a well-formed generated Reliability block in docs/reliability.md', () => {
    const parsed = parseBlock(readFileSync(RELIABILITY_DOC, 'utf8'))
    expect('error' in parsed ? parsed.error : null).toBeNull()
    if ('rows' in parsed) expect(parsed.rows.get('requests tried')).toBeGreaterThan(0)
  })
})
