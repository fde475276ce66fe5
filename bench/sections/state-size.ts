import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fire, probe } from '../lib/load.js'
import type { LoadFigures } from '../lib/load.js'
import { budgetChange, firstCampaignId, heldWrite } from '../lib/operations.js'
import { peakRssMb } from '../lib/processes.js'
import { seedAudit } from '../lib/seed.js'
import { startSandbox } from '../lib/servers.js'
import { medianOf } from '../lib/stats.js'
import type { LoadSettings } from './compare.js'

export interface SizeRow {
  audit_records: number
  rps: number
  p50: number
  p99: number
  failures: number
  cpu_ms_per_request: number
  /** Start-up (resume from the state file) to the first 200, ms. */
  resume_ms: number
  /** Peak RSS of the sandbox over start-up and the write load, MB. */
  peak_rss_mb: number | null
  runs: LoadFigures[]
}

/**
 * Durable write cost vs state size: for each size, a fresh state file gets one real budget change
 * and one held write (templates), `size` audit rows are appended to its log while the sandbox is
 * stopped, then the sandbox resumes from it and the budget change is measured under load.
 */
export async function measureStateSizes(options: { root: string; sizes: number[]; settings: LoadSettings; log: (line: string) => void }): Promise<SizeRow[]> {
  const { root, sizes, settings, log } = options
  const dir = await mkdtemp(join(tmpdir(), 'adops-bench-size-'))
  const rows: SizeRow[] = []
  try {
    for (const size of sizes) {
      const state = join(dir, `state-${size}.json`)
      const first = await startSandbox({ root, state })
      const campaignId = await firstCampaignId(first)
      await probe(budgetChange(first, campaignId))
      await probe(heldWrite(first, campaignId))
      await first.stop()
      const { seeded } = await seedAudit(state, size)
      const sandbox = await startSandbox({ root, state })
      try {
        const target = budgetChange(sandbox, campaignId)
        await probe(target)
        const load = { connections: settings.connections, seconds: settings.duration }
        if (settings.warmup > 0) await fire(target, { ...load, seconds: settings.warmup })
        const runs: LoadFigures[] = []
        for (let i = 0; i < settings.runs; i++) runs.push(await fire(target, load))
        const figures = medianOf(runs, ['rps', 'p50', 'p99', 'failures', 'cpu_ms_per_request'])
        log(`  ${size} audit rows (${seeded} seeded): ${Math.round(figures.rps)} req/s p50 ${figures.p50} ms p99 ${figures.p99} ms ${figures.cpu_ms_per_request} cpu-ms/req, resume ${Math.round(sandbox.startMs)} ms`)
        rows.push({
          audit_records: size, rps: figures.rps, p50: figures.p50, p99: figures.p99, failures: figures.failures, cpu_ms_per_request: figures.cpu_ms_per_request,
          resume_ms: Math.round(sandbox.startMs), peak_rss_mb: peakRssMb(sandbox.child.pid), runs,
        })
      } finally {
        await sandbox.stop()
      }
      await rm(state, { force: true })
      await rm(`${state}.log`, { force: true })
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
