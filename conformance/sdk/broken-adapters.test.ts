import { describe, expect, it } from 'vitest'
import { runScenarios } from '../runner.js'
import { makeTarget } from '../targets.js'
import { SdkAdapter } from './adapter-process.js'
import { withSdk } from './sdk-target.js'

const RETRIES = ['sdk.backoff-without-retry-after', 'sdk.network-and-timeout-retried', 'sdk.retry-after', 'sdk.retry-limit']

/** The harness's self-test: a client broken on purpose fails exactly the checks that describe the defect. */
describe('deliberately broken clients fail exactly their checks', () => {
  it.each<[string, string[], string]>([
    ['no-retry', RETRIES, 'SDK-03'],
    ['impatient', RETRIES, 'SDK-03'],
    ['x-api-key', ['sdk.bearer-only', 'sdk.execute-flags', 'sdk.retry-after'], 'SDK-05'],
  ])('--defect %s fails %j, each covering %s', async (defect, expected, rule) => {
    const adapter = await SdkAdapter.start(`node --import tsx conformance/adapters/reference.ts --defect ${defect}`)
    try {
      const run = await runScenarios({ paths: ['scenarios/sdk'], tags: ['sdk', '~slow'], contract: 'off', baseline: null, target: withSdk(makeTarget(), adapter) })
      const failed = run.scenarios.filter((r) => r.outcome === 'failed')
      expect(failed.map((r) => r.id).sort()).toEqual(expected)
      for (const r of failed) expect(r.covers).toContain(rule)
      expect(run.summary.skipped).toBe(0)
      expect(run.sdk).toBe(`adops-reference@0.2.0-broken.${defect}`)
    } finally {
      await adapter.close()
    }
  }, 120_000)

  it('--defect list-as-csv fails only the convention scenario, which names no rule id', async () => {
    const adapter = await SdkAdapter.start('node --import tsx conformance/adapters/reference.ts --defect list-as-csv')
    try {
      const run = await runScenarios({ paths: ['scenarios/sdk'], tags: ['sdk', '~slow'], grep: 'execute-flags|convention', contract: 'off', baseline: null, target: withSdk(makeTarget(), adapter) })
      expect(run.scenarios.map((r) => [r.id, r.outcome, r.covers])).toEqual([
        ['sdk.convention.list-and-boolean-flags', 'failed', []],
        ['sdk.execute-flags', 'passed', ['SDK-01', 'SDK-05', 'DISP-01', 'DISP-06']],
      ])
    } finally {
      await adapter.close()
    }
  }, 120_000)
})
