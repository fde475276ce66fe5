/**
 * Child process of the suite figure: imports the compiled conformance kit, runs every scenario
 * against the in-process sandbox with contract validation on, and prints one JSON line.
 * Usage: node --import tsx bench/suite-child.ts <dist module exporting runScenarios> <scenarios dir>
 */
const [modulePath, scenariosDir] = process.argv.slice(2)
const kit = (await import(modulePath)) as { runScenarios: (options: Record<string, unknown>) => Promise<unknown> }
const started = performance.now()
const outcome = (await kit.runScenarios({ paths: [scenariosDir] })) as { results?: Array<{ status?: string }> }
const wall_ms = Math.round(performance.now() - started)
const results = outcome.results ?? []
const failed = results.filter((r) => r.status === 'failed').length
process.stdout.write(`${JSON.stringify({ scenarios: results.length, passed: results.length - failed, failed, wall_ms })}\n`)
process.exit(0)
