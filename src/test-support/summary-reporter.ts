import type { Reporter, TestModule } from 'vitest/node'

/** How many of the slowest files the closing table lists (`SLOWEST_FILES=0` turns it off). */
const SLOWEST = Number(process.env.SLOWEST_FILES ?? 12)

/**
 * Prints the slowest test files (collect + tests, slowest first) and then one plain closing line,
 * `N passed, N failed, N skipped`, after vitest's own summary: the table shows the next person
 * where the time goes, and any CI that reads a run's last line (not only vitest's format) sees
 * what ran.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') counts.failed++
        else counts.skipped++
      }
      // A file that failed to load has no tests but must not read as green.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++
    }
    process.stdout.write(slowestFiles(testModules))
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`)
  }
}

/** The top files by their own time (import + tests and hooks), with the project name when there is one. */
export function slowestFiles(testModules: ReadonlyArray<TestModule>, top = SLOWEST): string {
  if (top <= 0 || testModules.length === 0) return ''
  const rows = testModules
    .map((module) => {
      const d = module.diagnostic()
      const project = module.project.name ? ` [${module.project.name}]` : ''
      return { ms: d.collectDuration + d.duration, name: `${module.relativeModuleId}${project}` }
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
  const lines = rows.map((r) => `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.name}`)
  return `\nSlowest test files (import + tests):\n${lines.join('\n')}\n`
}
