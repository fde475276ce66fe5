import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSandbox } from '../src/create-sandbox.js'
import type { RunningSandbox } from '../src/create-sandbox.js'
import { conformCommand } from '../src/cli/conform.js'
import { runScenarios } from './runner.js'

/**
 * Issue 15 item 3: the `spec` scenarios share one running service (as on a real deployment) and
 * run in parallel; none may see another's keys, charges or campaign changes.
 */
describe('the spec scenarios against one shared target, in parallel', { timeout: 180_000 }, () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await createSandbox()
  })
  afterAll(() => sandbox.close())

  it('pass three times in a row with 4 jobs and every credential of the world', async () => {
    for (let round = 1; round <= 3; round++) {
      const run = await runScenarios({
        paths: ['scenarios'], tags: ['spec'], jobs: 4, baseline: null,
        target: { kind: 'real', baseUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl, keys: sandbox.keys },
      })
      const failures = run.scenarios.filter((r) => r.outcome === 'failed').map((r) => `${r.id}: ${r.reason}`)
      expect({ round, failures }).toEqual({ round, failures: [] })
      expect(run.summary.passed).toBeGreaterThan(25)
    }
  })

  it('the guide-ci command (--base-url, --api-url, --key owner=, --key reporting=, --tags spec) exits 0 with 4 jobs', async () => {
    let stdout = ''
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      process.exitCode = undefined
      await conformCommand().exitOverride().parseAsync([
        '--base-url', sandbox.baseUrl, '--api-url', sandbox.apiUrl,
        '--key', `owner=${sandbox.keys.owner}`, '--key', `reporting=${sandbox.keys.reporting}`, '--tags', 'spec', '--jobs', '4', '--no-baseline',
      ], { from: 'user' })
      expect({ code: Number(process.exitCode ?? 0), last: stdout.trim().split('\n').at(-1) }).toMatchObject({ code: 0, last: expect.stringMatching(/^\d+ passed, 0 failed$/) })
    } finally {
      vi.restoreAllMocks()
      process.exitCode = undefined
    }
  })
})
