import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/create-sandbox.js'
import type { RunningSandbox } from '../../src/create-sandbox.js'
import { conformInProcess } from '../../src/test-support/conform-in-process.js'
import { runScenarios } from '../runner.js'
import { makeTarget } from '../targets.js'
import type { TargetFactory } from '../targets.js'

const SCENARIO = 'scenarios/mcp/MCP-01-oauth-sign-in.yaml'
const ADMIN_TOKEN = 'conform-admin-token-7f3a'

const conform = conformInProcess

/**
 * The `mcp` step's OAuth sign-in against a running sandbox started with an admin token: the
 * sign-in page asks for the token first (docs/security.md), and the kit types in `--admin-token`.
 */
describe('mcp.oauth-sign-in against a token-protected running sandbox', { timeout: 90_000 }, () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await createSandbox({ adminToken: ADMIN_TOKEN })
  })
  afterAll(() => sandbox.close())

  it('passes with conform --target URL --admin-token T', async () => {
    const r = await conform([SCENARIO, '--target', sandbox.baseUrl, '--admin-token', ADMIN_TOKEN, '--no-baseline'])
    expect({ code: r.code, last: r.stdout.trim().split('\n').at(-1) }).toEqual({ code: 0, last: '1 passed, 0 failed' })
  })

  it('fails at the sign-in step when the target does not hand the token to the step', async () => {
    const url = makeTarget({ kind: 'url', baseUrl: sandbox.baseUrl, adminToken: ADMIN_TOKEN })
    const withoutToken: TargetFactory = { ...url, open: async (scenario) => ({ ...(await url.open(scenario)), adminToken: undefined }) }
    const run = await runScenarios({ paths: [SCENARIO], target: withoutToken, baseline: null, jobs: 1 })
    expect(run.scenarios.map((s) => s.outcome)).toEqual(['failed'])
    expect(run.scenarios[0].reason).toMatch(/sign-in answered 403/)
  })
})
