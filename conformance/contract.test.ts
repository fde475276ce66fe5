import { describe, expect, it } from 'vitest'
import type { Transform } from './forwarder.js'
import type { TargetFactory } from './targets.js'
import { startForwarder } from './forwarder.js'
import { makeTarget } from './targets.js'
import { runScenarios } from './runner.js'

/** The sandbox, with key records missing their `prefix` (a field the contract requires). */
function withoutPrefix(): TargetFactory {
  const inner = makeTarget({ kind: 'sandbox' })
  const drop: Transform = (req, res) => (req.path === '/v1/me' ? { ...res, body: res.body.replace(/,"prefix":"[^"]*"/, '') } : res)
  return {
    ...inner,
    async open(scenario) {
      const target = await inner.open(scenario)
      const api = await startForwarder(() => target.apiUrl, drop)
      return { ...target, apiUrl: api.url, close: async () => { await api.close(); await target.close() } }
    },
  }
}

const paths = ['conformance/test-fixtures/pass/A-01-pass.yaml']

describe('contract validation of every exchange', { timeout: 90_000 }, () => {
  it('inline: a conforming sandbox has no violations', async () => {
    const run = await runScenarios({ paths, contract: 'inline', baseline: null })
    expect(run.summary).toMatchObject({ passed: 1, failed: 0, violations: 0 })
  })

  it.each(['inline', 'prism-proxy'] as const)('%s: a response missing a required field is a violation on that step', async (contract) => {
    const run = await runScenarios({ paths, contract, target: withoutPrefix(), baseline: null })
    const [untouched, step] = run.scenarios[0].steps
    expect(untouched.violations).toEqual([])
    expect(run.summary.failed).toBe(1)
    expect(step.violations.map((v) => `${v.severity} ${v.location} ${v.message}`).join('\n')).toMatch(/error response\.body.*prefix/)
    expect(step.reason).toMatch(/^contract: /)
  }, 120_000)

  it('with contractSeverity warn, reports the violation without failing the step', async () => {
    const run = await runScenarios({ paths, target: withoutPrefix(), contractSeverity: 'warn', baseline: null })
    expect(run.summary.failed).toBe(0)
    expect(run.scenarios[0].steps[1].violations[0].severity).toBe('warn')
  })
})
