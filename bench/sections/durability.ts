import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fire, probe } from '../lib/load.js'
import type { LoadFigures } from '../lib/load.js'
import { budgetChange, firstCampaignId } from '../lib/operations.js'
import { startSandbox } from '../lib/servers.js'
import { medianOf } from '../lib/stats.js'
import type { LoadSettings } from './compare.js'

/** The sandbox's `--durability` modes (src/store/durable-file.ts), cheapest first. */
export const DURABILITY_MODES = ['process', 'fsync'] as const

export interface DurabilityRow {
  durability: (typeof DURABILITY_MODES)[number]
  rps: number
  p50: number
  p99: number
  failures: number
  cpu_ms_per_request: number
  runs: LoadFigures[]
}

/**
 * The cost of `--durability fsync`: the same budget change (200, executed, acknowledged after its
 * group commit) under the same load, against a fresh sandbox per mode on the same disk.
 */
export async function measureDurability(options: { root: string; settings: LoadSettings; log: (line: string) => void }): Promise<DurabilityRow[]> {
  const { root, settings, log } = options
  const dir = await mkdtemp(join(tmpdir(), 'adops-bench-durability-'))
  const rows: DurabilityRow[] = []
  // Both started at once (a start is mostly module loading), then measured one after the other.
  const started = await Promise.allSettled(DURABILITY_MODES.map((durability) =>
    startSandbox({ root, state: join(dir, `state-${durability}.json`), extraArgs: ['--durability', durability] })))
  try {
    for (const [i, durability] of DURABILITY_MODES.entries()) {
      const start = started[i]
      if (start.status === 'rejected') throw start.reason
      const sandbox = start.value
      const target = budgetChange(sandbox, await firstCampaignId(sandbox))
      await probe(target)
      const load = { connections: settings.connections, seconds: settings.duration }
      if (settings.warmup > 0) await fire(target, { ...load, seconds: settings.warmup })
      const runs: LoadFigures[] = []
      for (let run = 0; run < settings.runs; run++) runs.push(await fire(target, load))
      const figures = medianOf(runs, ['rps', 'p50', 'p99', 'failures', 'cpu_ms_per_request'])
      log(`  --durability ${durability}: ${Math.round(figures.rps)} req/s p50 ${figures.p50} ms p99 ${figures.p99} ms ${figures.cpu_ms_per_request} cpu-ms/req`)
      rows.push({ durability, ...figures, runs })
    }
  } finally {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)))
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
