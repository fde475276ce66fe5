import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** What a sandbox's RSS was made of at a milestone (`bench/lib/memory-probe.mjs`), in MB. */
export interface MemoryBreakdown {
  rss_mb: number
  /** The node binary's and libraries' pages: the same at any history length. */
  file_backed_mb: number
  /** V8's heap as committed, and the part in use (garbage included until the next GC). */
  heap_total_mb: number
  heap_used_mb: number
  new_space_mb: number | null
  old_space_mb: number | null
  /** Outside the V8 heap: typed arrays (the history indexes) and buffers. */
  external_mb: number
  array_buffers_mb: number
  /** `heap_used_mb` after a forced full GC (read after the idle RSS, so it does not change it). */
  live_heap_mb?: number
}

const PROBE = fileURLToPath(new URL('../lib/memory-probe.mjs', import.meta.url))

/**
 * Makes every sandbox this process starts from now on load the memory probe (children inherit the
 * environment); returns the directory the probe answers in.
 */
export function enableMemoryProbe(dir: string): string {
  const probeDir = join(dir, 'probe')
  mkdirSync(probeDir, { recursive: true })
  process.env.MEMORY_PROBE_DIR = probeDir
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${PROBE}`.trim()
  return probeDir
}

/** Asks the sandbox `pid` for its breakdown (after a full GC when `collect`); null if it does not answer in 10 s. */
export async function readMemory(probeDir: string, pid: number, collect = false): Promise<MemoryBreakdown | null> {
  const file = join(probeDir, `memory-${pid}.json`)
  rmSync(file, { force: true })
  if (collect) writeFileSync(join(probeDir, 'gc'), '')
  else rmSync(join(probeDir, 'gc'), { force: true })
  process.kill(pid, 'SIGUSR2')
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as MemoryBreakdown
      } catch {
        // Half written: read it again on the next turn.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return null
}
