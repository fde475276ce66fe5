import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { TOOL_SERVER_SCENARIOS, locateSuite, runConformance } from '../test-support/mcp-conformance.js'
import type { ScenarioResult } from '../test-support/mcp-conformance.js'

// The suite is installed by `.ci/run` (tools/mcp-conformance); a machine without it skips here,
// and CI fails instead, since a missing install is ours to fix, not an outside outage.
const suite = locateSuite()
const missing = 'missing' in suite ? suite.missing : null

describe.skipIf(missing !== null)('the official MCP conformance suite against hosted /mcp (issue 35)', () => {
  let sb: TestSandbox
  let results: ScenarioResult[]
  beforeAll(async () => {
    sb = await startSandbox()
    results = await runConformance({ url: `${sb.baseUrl}/mcp`, headers: { 'X-Service-Key': KEYS.agent } })
  }, 300_000)
  afterAll(async () => {
    await sb?.close()
  })

  it.each(TOOL_SERVER_SCENARIOS)('passes scenario %s with the key sent in X-Service-Key', (scenario) => {
    const result = results.find((r) => r.scenario === scenario) as ScenarioResult
    const failed = result.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
    expect(failed, result.output).toEqual([])
    expect(result.checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(0)
    expect(result.exitCode, result.output).toBe(0)
  })

  it('is refused without the credential: the suite fails at initialize (401), so the header is what lets it in', async () => {
    const [anonymous] = await runConformance({ url: `${sb.baseUrl}/mcp`, headers: {}, scenarios: ['ping'] })
    expect(anonymous.exitCode).not.toBe(0)
  }, 120_000)
})

describe('the conformance suite is installed where CI runs', () => {
  it.skipIf(process.env.CI !== 'true')('finds the suite and a Node >= 22 under CI=true', () => {
    expect(missing).toBeNull()
  })
  it.skipIf(missing === null || process.env.CI === 'true')(`skipped here: ${missing ?? ''}`, () => undefined)
})
