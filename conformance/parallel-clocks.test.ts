import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../src/create-sandbox.js'
import type { RunningSandbox } from '../src/create-sandbox.js'
import { runScenarios } from './runner.js'
import type { RunEvent } from './runner.js'

/** The shipped scenarios that move time: `clock` control steps or `wait` steps (issue 19 item 1). */
const CLOCK_SCENARIOS = [
  'scenarios/connections/CONN-02-expiry-exact-boundary.yaml', 'scenarios/connections/CONN-02-link-expires.yaml',
  'scenarios/dispatch/DISP-09-artifact-lifecycle.yaml', 'scenarios/errors/ERR-03-rate-limit.yaml',
  'scenarios/errors/ERR-03-retry-after-countdown.yaml', 'scenarios/errors/ERR-05-metrics-400-takes-no-token.yaml',
  'scenarios/gate/GATE-01-review-expiry-boundary.yaml', 'scenarios/gate/GATE-01-expired-review-stays-expired.yaml',
  'scenarios/gate/GATE-02-operating-hours-boundaries.yaml',
  'scenarios/gate/GATE-02-outside-hours.yaml', 'scenarios/key/KEY-09-expired-key.yaml',
  'scenarios/key/KEY-09-expiry-boundary.yaml', 'scenarios/rest/REST-01-metrics-over-sandbox-time.yaml',
]

describe('clock scenarios in parallel against one running sandbox (--target)', { timeout: 240_000 }, () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await createSandbox()
  })
  afterAll(() => sandbox.close())

  it('pass three rounds in a row at --jobs 4, each in its own world copy on its own clocks, overlapping in time', async () => {
    for (let round = 1; round <= 3; round++) {
      let running = 0
      let overlap = 0
      const onEvent = (e: RunEvent) => {
        if (e.type === 'scenario-start') overlap = Math.max(overlap, ++running)
        if (e.type === 'scenario-end') running--
      }
      const run = await runScenarios({ paths: CLOCK_SCENARIOS, jobs: 4, baseline: null, coverage: false, target: { kind: 'url', baseUrl: sandbox.baseUrl, adminToken: sandbox.adminToken! }, onEvent })
      const failures = run.scenarios.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.outcome} ${r.reason ?? ''}`)
      expect({ round, failures }).toEqual({ round, failures: [] })
      expect(run.meta?.jobs).toBe(4)
      expect(overlap).toBeGreaterThan(1)
      // Every clock step went to the scenario's own workspace clocks, none to the shared sandbox clock.
      const notes = run.scenarios.flatMap((r) => r.steps.flatMap((s) => s.notes ?? []))
      expect(notes.filter((n) => n.includes('/_sandbox/clock'))).toEqual([])
      expect(notes.filter((n) => /POST \/_sandbox\/workspaces\/ws_acme_\w+\/clock/.test(n)).length).toBeGreaterThan(10)
      // Each copy went with its scenario: the sandbox holds its own world's workspaces only.
      const state = await sandbox.control.request<{ workspaces: Array<{ id: string }> }>('GET', '/state')
      expect(state.workspaces.map((w) => w.id)).toEqual(['ws_acme'])
    }
    // Only the copies' clocks moved: the shared sandbox clock was never advanced, set or frozen.
    expect(await sandbox.control.clock()).toMatchObject({ frozen: false })
    expect((await sandbox.control.clock()).offset_ms).toBe(0)
  })
})
