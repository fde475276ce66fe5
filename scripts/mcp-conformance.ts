/**
 * Runs the official MCP conformance suite against any hosted MCP endpoint, with a credential:
 *   npx tsx scripts/mcp-conformance.ts --url http://127.0.0.1:4010/mcp --header "X-Service-Key: $KEY" [--scenario ping]…
 * Needs `npm ci --prefix tools/mcp-conformance` (the suite and Node 22). Exits 1 when a check fails.
 */
import { parseArgs } from 'node:util'
import { TOOL_SERVER_SCENARIOS, runConformance } from '../src/test-support/mcp-conformance.js'

const { values } = parseArgs({ options: { url: { type: 'string' }, header: { type: 'string', multiple: true }, scenario: { type: 'string', multiple: true } } })
if (!values.url) {
  process.stderr.write('usage: mcp-conformance --url <hosted mcp url> [--header "Name: value"]… [--scenario <name>]…\n')
  process.exit(2)
}
const headers: Record<string, string> = {}
for (const line of values.header ?? []) {
  const at = line.indexOf(':')
  if (at < 1) {
    process.stderr.write(`--header "${line.slice(0, 40)}": expected "Name: value"\n`)
    process.exit(2)
  }
  headers[line.slice(0, at).trim()] = line.slice(at + 1).trim()
}
const results = await runConformance({ url: values.url, headers, scenarios: values.scenario ?? TOOL_SERVER_SCENARIOS })
let failed = false
for (const result of results) {
  const bad = result.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
  failed ||= bad.length > 0 || result.exitCode !== 0
  process.stdout.write(`${bad.length === 0 && result.exitCode === 0 ? 'pass' : 'FAIL'} ${result.scenario}${bad.map((c) => `\n  ${c.status} ${c.id}: ${c.errorMessage ?? ''}`).join('')}\n`)
}
process.exit(failed ? 1 : 0)
