import { readFileSync, statSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunningServer } from '../lib/servers.js'
import { AUTH, startSandbox } from '../lib/servers.js'
import type { MemoryBreakdown } from './history-memory.js'
import { enableMemoryProbe, readMemory } from './history-memory.js'
import { campaignIds } from './agent-session.js'

/** Issue 17 items 1–2: what a long history costs the sandbox process, at one milestone of durable writes. */
export interface HistoryGrowthRow {
  /** Durable writes acknowledged so far (budget changes, held writes and their rejections). */
  writes: number
  /** RSS of the sandbox that wrote the last stretch, measured right after it (MB). */
  rss_mb: number | null
  /** The same process after `idle_seconds` without requests: V8 has given back heap it grew under load (MB). */
  idle_rss_mb: number | null
  /** Peak RSS of that process over its life (MB). */
  peak_rss_mb: number | null
  /** Size of the state log (`<state>.log`) and its index checkpoint. */
  log_mb: number
  checkpoint_mb: number
  /** A fresh process resuming the state: spawn to the first 200 (ms), and its RSS then (MB). */
  resume_ms: number
  resumed_rss_mb: number | null
  /** Durable writes per second while writing this stretch (the client shares the 2 cores). */
  writes_per_second: number
  /** What `rss_mb` was made of (V8 heap, outside it, the binary), and the live heap after a full GC. */
  memory: MemoryBreakdown | null
}

/**
 * Drives durable writes through HTTP against a sandbox with a state file, in a child process (so
 * RSS is the sandbox's own): each worker loops over a budget change (executed, audit + ledger row),
 * a held `enable_campaign` (202, a pending audit row) and its rejection on the control plane (the
 * row updated). At each milestone it reads the sandbox's RSS and the log's size, stops it, and
 * times a resume (spawn to first 200); the resumed process writes the next stretch.
 */
export async function measureHistoryGrowth(options: { root: string; milestones: number[]; workers?: number; log: (line: string) => void }): Promise<HistoryGrowthRow[]> {
  const { root, milestones, log } = options
  const dir = await mkdtemp(join(tmpdir(), 'adops-bench-history-'))
  const state = join(dir, 'state.json')
  const rows: HistoryGrowthRow[] = []
  const probeDir = enableMemoryProbe(dir)
  let sandbox: RunningServer = await startSandbox({ root, state })
  try {
    const campaigns = await campaignIds(sandbox)
    let written = 0
    for (const milestone of milestones) {
      const started = performance.now()
      written = await writeUntil(sandbox, { campaigns, from: written, to: milestone, workers: options.workers ?? 16 })
      const seconds = (performance.now() - started) / 1000
      const rss = rssMb(sandbox.pid, 'VmRSS')
      const peak = rssMb(sandbox.pid, 'VmHWM')
      const memory = await readMemory(probeDir, sandbox.pid)
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
      const idle = rssMb(sandbox.pid, 'VmRSS')
      const live = await readMemory(probeDir, sandbox.pid, true)
      if (memory && live) memory.live_heap_mb = live.heap_used_mb
      // Idle keep-alive sockets would hold the server's close past the grace period (a SIGKILL: no checkpoint at close).
      agent.destroy()
      await sandbox.child.stop(60_000)
      const logBytes = sizeOf(`${state}.log`)
      const resumed = await startSandbox({ root, state })
      sandbox = resumed
      agent = new Agent({ keepAlive: true, maxSockets: 64 })
      const row: HistoryGrowthRow = {
        writes: written, rss_mb: rss, idle_rss_mb: idle, peak_rss_mb: peak, log_mb: mb(logBytes), checkpoint_mb: mb(sizeOf(`${state}.log.ckpt`)),
        resume_ms: Math.round(resumed.startMs), resumed_rss_mb: rssMb(resumed.pid, 'VmRSS'), writes_per_second: Math.round((written - (rows.at(-1)?.writes ?? 0)) / seconds), memory,
      }
      rows.push(row)
      log(`  ${written} durable writes: RSS ${row.rss_mb} MB (after ${IDLE_SECONDS} s idle ${row.idle_rss_mb}, peak ${row.peak_rss_mb}), log ${row.log_mb} MB, resume ${row.resume_ms} ms (RSS ${row.resumed_rss_mb} MB), ${row.writes_per_second} writes/s`)
      if (memory) log(`    RSS ${memory.rss_mb} MB = heap ${memory.heap_total_mb} (new ${memory.new_space_mb}, old ${memory.old_space_mb}; used ${memory.heap_used_mb}, live ${memory.live_heap_mb ?? '?'}) + external ${memory.external_mb} (array buffers ${memory.array_buffers_mb}) + binary ${memory.file_backed_mb} + other`)
    }
    return rows
  } finally {
    await sandbox.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

/** Seconds without requests before the idle RSS reading (V8's memory reducer shrinks the heap after a few). */
const IDLE_SECONDS = 10

let agent = new Agent({ keepAlive: true, maxSockets: 64 })

async function writeUntil(sandbox: RunningServer, plan: { campaigns: string[]; from: number; to: number; workers: number }): Promise<number> {
  let written = plan.from
  let failures = 0
  const failed = (res: { status: number; body: string }) => {
    if (++failures > 100) throw new Error(`too many failed writes (last: ${res.status} ${res.body.slice(0, 300)})`)
  }
  const worker = async (index: number) => {
    const campaign = plan.campaigns[index % plan.campaigns.length]
    for (let n = 0; written < plan.to; n++) {
      const budget = await call(`${sandbox.baseUrl}/api/v1/tools/run`, { script_name: 'update_campaign_budget', args: ['--campaign-id', campaign, '--daily-budget', String(50 + (n % 2))], platform: 'google' })
      if (budget.status === 200) written++
      else failed(budget)
      const held = await call(`${sandbox.baseUrl}/api/v1/tools/run`, { script_name: 'enable_campaign', args: ['--campaign-id', campaign], platform: 'google' })
      if (held.status !== 202) {
        failed(held)
        continue
      }
      written++
      const id = (JSON.parse(held.body) as { audit_id: string }).audit_id
      const rejected = await call(`${sandbox.baseUrl}/_sandbox/reviews/${id}/reject`, { reviewer: 'bench' }, { 'x-sandbox-admin': sandbox.adminToken ?? '' })
      if (rejected.status === 200) written++
      else failed(rejected)
    }
  }
  await Promise.all(Array.from({ length: plan.workers }, (_, i) => worker(i)))
  return written
}

function call(url: string, body: unknown, headers: Record<string, string> = AUTH): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)
    return match ? Math.round(Number(match[1]) / 1024) : null
  } catch {
    return null
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

/** Resume time and RSS of a sandbox whose history was grown to `rows` audit rows directly through the store. */
export interface SeededResumeRow {
  audit_rows: number
  ledger_rows: number
  log_mb: number
  checkpoint_mb: number
  seed_seconds: number
  resume_ms: number
  /** The same resume before the history was seeded (one write): process start and app load, the machine's floor. */
  baseline_resume_ms: number
  resumed_rss_mb: number | null
}

/**
 * For a million-row history without minutes of HTTP writes: one real budget change through a
 * sandbox (the row templates), then the compiled store appends `rows` audit rows and half as many
 * ledger rows (clones with fresh ids) and closes (writing its checkpoint); a fresh sandbox then
 * resumes from it, timed from spawn to the first 200.
 */
export async function measureSeededResume(options: { root: string; rows: number; log: (line: string) => void }): Promise<SeededResumeRow> {
  const { root, rows, log } = options
  const dir = await mkdtemp(join(tmpdir(), 'adops-bench-resume-'))
  const state = join(dir, 'state.json')
  try {
    const first = await startSandbox({ root, state })
    const [campaign] = await campaignIds(first)
    await call(`${first.baseUrl}/api/v1/tools/run`, { script_name: 'update_campaign_budget', args: ['--campaign-id', campaign, '--daily-budget', '51'], platform: 'google' })
    await first.stop()
    const baseline = await startSandbox({ root, state })
    await baseline.stop()
    const started = performance.now()
    const counts = await seedThroughStore(root, state, rows)
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10
    const resumed = await startSandbox({ root, state })
    const row: SeededResumeRow = {
      ...counts, log_mb: mb(sizeOf(`${state}.log`)), checkpoint_mb: mb(sizeOf(`${state}.log.ckpt`)), seed_seconds: seedSeconds,
      resume_ms: Math.round(resumed.startMs), baseline_resume_ms: Math.round(baseline.startMs), resumed_rss_mb: rssMb(resumed.pid, 'VmRSS'),
    }
    await resumed.stop()
    log(`  resume from ${row.audit_rows} audit + ${row.ledger_rows} ledger rows (log ${row.log_mb} MB, checkpoint ${row.checkpoint_mb} MB): ${row.resume_ms} ms (${row.baseline_resume_ms} ms with one write), RSS ${row.resumed_rss_mb} MB`)
    return row
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

interface StoreLike {
  audit: { page(q: { limit: number }): { rows: Array<Record<string, unknown> & { id: string }> }; insert(row: unknown): unknown; size(): number }
  ledger: { page(q: { limit: number }): { rows: Array<Record<string, unknown> & { id: string }> }; insert(row: unknown): unknown; size(): number }
  commit(): Promise<void>
  close(): Promise<void>
}

async function seedThroughStore(root: string, state: string, rows: number): Promise<{ audit_rows: number; ledger_rows: number }> {
  const { openStore } = (await import(join(root, 'dist/src/store/lowdb-store.js'))) as { openStore(o: { file: string }): Promise<StoreLike> }
  const store = await openStore({ file: state })
  const [audit] = store.audit.page({ limit: 1 }).rows
  const [ledger] = store.ledger.page({ limit: 1 }).rows
  if (!audit || !ledger) throw new Error('the template budget change left no audit or ledger row')
  const base = Date.parse(String(audit.at))
  for (let i = store.audit.size(); i < rows; i++) {
    const at = new Date(base - (rows - i) * 1000).toISOString()
    store.audit.insert({ ...audit, id: `aud_seed${i.toString(36).padStart(8, '0')}`, at })
    if (i % 2 === 0) store.ledger.insert({ ...ledger, id: `led_seed${i.toString(36).padStart(8, '0')}`, at })
    if (i % 2000 === 1999) await store.commit()
  }
  const counts = { audit_rows: store.audit.size(), ledger_rows: store.ledger.size() }
  await store.close()
  return counts
}
