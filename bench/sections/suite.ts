import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { firstLine, startChild } from '../lib/processes.js'

export interface SuiteRow {
  scenarios?: number
  passed?: number
  failed?: number
  skipped_scenarios?: number
  contract_violations?: number
  /** Loading the kit plus running every scenario: what a CI user waits for. */
  wall_ms?: number
  load_ms?: number
  run_ms?: number
  /** Scenario path run, when not the whole suite (`--quick` runs one scenario to check the plumbing). */
  subset?: string
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
export async function measureSuite(options: { root: string; timeoutMs: number; subset?: string }): Promise<SuiteRow> {
  const module = await findRunner(options.root)
  if (!module) return { skipped: 'the conformance kit (runScenarios in conformance/) has not landed yet' }
  const scenarios = join(options.root, options.subset ?? 'scenarios')
  const child = startChild(process.execPath, ['--import', 'tsx', join(options.root, 'bench/suite-child.ts'), module, scenarios], { cwd: options.root })
  try {
    const line = await firstLine(child, options.timeoutMs)
    return { ...(JSON.parse(line) as SuiteRow), module: module.slice(options.root.length + 1), ...(options.subset ? { subset: options.subset } : {}) }
  } finally {
    await child.stop(1_000)
  }
}
