// Preloaded into a bench's sandbox child (`NODE_OPTIONS=--import=<this file>`, with
// MEMORY_PROBE_DIR set): what the process's RSS is made of, on request, without an endpoint in the
// product. SIGUSR2 writes <dir>/memory-<pid>.json; with a `gc` file in <dir> it first runs a full
// GC, so `heap_used` is the live heap. Nothing runs until the signal.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const dir = process.env.MEMORY_PROBE_DIR
const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10

function statusKb(status, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)
  return match ? Number(match[1]) * 1024 : 0
}

function snapshot() {
  const usage = process.memoryUsage()
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ''), mb(s.space_size)]))
  const status = readFileSync('/proc/self/status', 'utf8')
  return {
    rss_mb: mb(usage.rss),
    // Pages of the node binary and libraries (shared, the same at any history length).
    file_backed_mb: mb(statusKb(status, 'RssFile')),
    heap_total_mb: mb(usage.heapTotal),
    heap_used_mb: mb(usage.heapUsed),
    new_space_mb: spaces.new ?? null,
    old_space_mb: spaces.old ?? null,
    // Typed arrays (the history indexes) and other memory V8 knows is held outside its heap.
    external_mb: mb(usage.external),
    array_buffers_mb: mb(usage.arrayBuffers),
  }
}

if (dir) {
  process.on('SIGUSR2', () => {
    const collect = existsSync(join(dir, 'gc'))
    if (collect) {
      setFlagsFromString('--expose-gc')
      runInNewContext('gc')()
    }
    writeFileSync(join(dir, `memory-${process.pid}.json`), JSON.stringify({ after_gc: collect, ...snapshot() }))
  })
}
