import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPrism, startSandbox } from '../lib/servers.js'
import { median, ratio, round } from '../lib/stats.js'

export interface StartRow {
  sandbox_ms: number
  prism_ms: number
  /** Median of per-run sandbox ÷ Prism start times (lower is better; target ≤ 0.33). */
  ratio: number
  runs: Array<{ sandbox_ms: number; prism_ms: number }>
}

/**
 * Cold start to the first 200: `node dist/src/main.js serve` on a fresh state file (loads the bench
 * world) vs `prism mock` on the contract, spawn to first good answer, polled every 10 ms.
 */
export async function measureStarts(options: { root: string; spec: string; runs: number; log: (line: string) => void }): Promise<StartRow> {
  const dir = await mkdtemp(join(tmpdir(), 'adops-bench-start-'))
  const runs: StartRow['runs'] = []
  try {
    for (let i = 0; i < options.runs; i++) {
      const sandboxStart = async () => {
        const s = await startSandbox({ root: options.root, state: join(dir, `state-${i}.json`) })
        await s.stop()
        return s.startMs
      }
      const prismStart = async () => {
        const p = await startPrism({ root: options.root, spec: options.spec })
        await p.stop()
        return p.startMs
      }
      // Alternate the order so neither side always starts on a machine the other just warmed.
      const [sandbox_ms, prism_ms] = i % 2 === 0
        ? [await sandboxStart(), await prismStart()]
        : await prismStart().then(async (p) => [await sandboxStart(), p])
      runs.push({ sandbox_ms: round(sandbox_ms), prism_ms: round(prism_ms) })
      options.log(`  start run ${i + 1}/${options.runs}: sandbox ${Math.round(sandbox_ms)} ms, prism ${Math.round(prism_ms)} ms`)
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  return {
    sandbox_ms: round(median(runs.map((r) => r.sandbox_ms))),
    prism_ms: round(median(runs.map((r) => r.prism_ms))),
    ratio: median(runs.map((r) => ratio(r.sandbox_ms, r.prism_ms))),
    runs,
  }
}
