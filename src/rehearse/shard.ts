import { readFile } from 'node:fs/promises'
import type { RehearsalReport } from './report.js'
import { summarize } from './report.js'

/** `i/n` → the shard's 1-based index and count, or an error message. */
export function parseShard(spec: string): { index: number; count: number } | string {
  const m = /^(\d+)\/(\d+)$/.exec(spec)
  const index = Number(m?.[1])
  const count = Number(m?.[2])
  if (!m || count < 1 || index < 1 || index > count) return `--shard must be i/n with 1 <= i <= n (got \`${spec}\`)`
  return { index, count }
}

/** Shard `index` of `count` of `items`, by position in name order: every item lands in exactly one shard. */
export function pickShard<T extends { name: string }>(items: T[], shard: { index: number; count: number }): T[] {
  return [...items].sort((a, b) => a.name.localeCompare(b.name)).filter((_, i) => i % shard.count === shard.index - 1)
}

/** Combines the JSON reports of a sharded rehearsal (`--reporter json:file` per shard) into one. */
export async function mergeReports(files: string[]): Promise<RehearsalReport> {
  const reports = await Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8')) as RehearsalReport))
  const agents = [...new Set(reports.map((r) => r.agent))]
  const startedAt = reports.map((r) => r.started_at).sort()[0] ?? new Date().toISOString()
  return summarize(agents.join(' | '), startedAt, reports.flatMap((r) => r.tasks))
}
