/**
 * Child process of the suite figure: imports the compiled conformance kit, runs every scenario
 * against the in-process sandbox (isolated worlds, inline contract validation on) and prints one
 * JSON line. `wall_ms` is what a CI user waits for: loading the kit plus running the suite.
 * Usage: node --import tsx bench/suite-child.ts <dist module exporting runScenarios> <scenarios dir>
 */
interface SuiteOutcome {
  scenarios: unknown[]
  summary: { passed: number; failed: number; skipped: number; violations: number }
}

const [modulePath, scenariosDir] = process.argv.slice(2)
const started = performance.now()
const kit = (await import(modulePath)) as { runScenarios: (options: Record<string, unknown>) => Promise<SuiteOutcome> }
const loaded = performance.now()
const outcome = await kit.runScenarios({ paths: [scenariosDir], contract: 'inline' })
const done = performance.now()
const { passed, failed, skipped, violations } = outcome.summary
process.stdout.write(`${JSON.stringify({
  scenarios: outcome.scenarios.length, passed, failed, skipped_scenarios: skipped, contract_violations: violations,
  wall_ms: Math.round(done - started), load_ms: Math.round(loaded - started), run_ms: Math.round(done - loaded),
})}\n`)
process.exit(0)
