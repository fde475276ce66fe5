import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { firstLine, startChild } from '../lib/processes.js'

export interface SuiteRow {
  scenarios?: number
  passed?: number
  failed?: number
  wall_ms?: number
  module?: string
  skipped?: string
}

/** The compiled module of the conformance kit that exports `runScenarios`, if it has landed. */
export async function findRunner(root: string): Promise<string | null> {
  const dir = join(root, 'dist/conformance')
  const files = await readdir(dir, { recursive: true }).catch(() => [] as string[])
  for (const file of files.filter((f) => f.endsWith('.js') && !f.endsWith('.test.js')).sort()) {
    const text = await readFile(join(dir, file), 'utf8')
    if (/export (async )?function runScenarios\b/.test(text)) return join(dir, file)
  }
  return null
}

/**
 * Wall time of the whole conformance suite against the in-process sandbox, run in a child process
 * (bench/suite-child.ts) on the compiled kit so the figure matches what CI pays.
 */
export async function measureSuite(options: { root: string; timeoutMs: number }): Promise<SuiteRow> {
  const module = await findRunner(options.root)
  if (!module) return { skipped: 'the conformance kit (runScenarios in conformance/) has not landed yet' }
  const child = startChild(process.execPath, ['--import', 'tsx', join(options.root, 'bench/suite-child.ts'), module, join(options.root, 'scenarios')], { cwd: options.root })
  try {
    const line = await firstLine(child, options.timeoutMs)
    return { ...(JSON.parse(line) as SuiteRow), module: module.slice(options.root.length + 1) }
  } finally {
    await child.stop(1_000)
  }
}
