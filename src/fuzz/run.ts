import { parseArgs } from 'node:util'
import { DEFAULT_SEED, runFuzz } from './fuzz.js'
import { KNOWN_FINDINGS } from './known-findings.js'
import { runRawFuzz } from './raw-requests.js'
import { writeBlock } from './reliability.js'

/**
 * `npm run fuzz -- --runs 100000 [--seed N|random] [--update]`: the long fuzz run. Prints progress and the
 * figures; `--update` writes them into docs/reliability.md. Exits 1 on the first unexplained
 * violation (fast-check prints the seed and the shrunk request to replay it).
 */
const { values } = parseArgs({ options: { runs: { type: 'string', default: '100000' }, seed: { type: 'string' }, update: { type: 'boolean', default: false } } })
const runs = Number(values.runs)
// `--seed random` explores: a fresh seed each run, printed so a finding replays with `--seed <n>`.
const seed = values.seed === undefined ? DEFAULT_SEED : values.seed === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed)
if (!Number.isSafeInteger(seed)) {
  console.error(`fuzz: --seed takes an integer or \`random\`; got ${values.seed}`)
  process.exit(2)
}
console.error(`fuzz: seed ${seed}`)
const started = performance.now()
try {
  const figures = await runFuzz({
    runs, seed, known: KNOWN_FINDINGS, resetEvery: 500,
    onProgress: (f) => console.error(`fuzz: ${f.requests} requests, ${((performance.now() - started) / 1000).toFixed(0)} s`),
  })
  console.log(JSON.stringify(figures, null, 2))
  // Raw requests on a socket (no Host, broken framing): a tenth as many, same seed (issue 36).
  console.log(`raw requests: ${await runRawFuzz(Math.max(100, Math.floor(runs / 10)), seed)} sent, no violation`)
  if (values.update) writeBlock(figures, `${new Date().toISOString().slice(0, 10)}, \`npm run fuzz -- --runs ${runs}\``)
  process.exit(0)
} catch (error) {
  // fast-check's message names the seed and the counterexample; its cause says which invariant broke.
  const failure = error as Error & { cause?: unknown }
  console.error(failure.message)
  if (failure.cause instanceof Error) console.error(`\n${failure.cause.message}`)
  process.exit(1)
}
