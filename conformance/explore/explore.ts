import fc from 'fast-check'
import { Contract, OPENAPI_PATH } from '../contract.js'
import { runScenario } from '../run-scenario.js'
import type { Scenario } from '../schema.js'
import { Secrets } from '../secrets.js'
import { toFactory } from '../targets.js'
import type { TargetFactory, TargetSpec } from '../targets.js'
import type { ScenarioResult } from '../types.js'
import { renameIds } from '../world-copies.js'
import type { Action, Property, Reach, Roles } from './actions.js'
import { actionArbitrary } from './actions.js'
import { assembleScenario, failureKey } from './assemble.js'
import { listMcpTools } from './mcp-actions.js'

/** The roles on the sandbox's multi-workspace world (fixtures/worlds/multi-workspace.yaml). */
export const SANDBOX_ROLES: Roles = {
  main: 'alex_client_a', other: 'alex_client_b', limited: 'casey_client_a', workspace: 'ws_client_a', otherWorkspace: 'ws_client_b',
}

export interface ExploreOptions {
  target?: TargetSpec | TargetFactory
  /** The world each run starts from on a sandbox (default `multi-workspace`, which `SANDBOX_ROLES` names). */
  world?: string
  /** Credential names by role; default `SANDBOX_ROLES` on a sandbox. A real deployment needs `main`. */
  roles?: Roles
  seed: number
  /** How many call sequences to try in all (default 100). */
  runs?: number
  /** Stop starting new sequences after this long (ms). */
  timeBudgetMs?: number
  /** Writes against a target that is not a sandbox (`--allow-writes`); a sandbox always allows them. */
  allowWrites?: boolean
  /** Longest sequence, in actions (default 6). */
  maxActions?: number
  onProgress?: (progress: { runs: number; of: number; findings: number }) => void
}

/** A violation found, shrunk: the scenario reproduces it (`conform FILE`). */
export interface ExploreFinding {
  property: Property
  /** The failing step and why, as the runner said it. */
  reason: string
  scenario: Scenario
}

export interface ExploreResult {
  seed: number
  runs: number
  findings: ExploreFinding[]
  duration_ms: number
  /** Why the exploration stopped before `runs` (time budget), if it did. */
  stopped?: string
}

/**
 * `conform --explore`: generates call sequences (fast-check), runs each as a scenario on a fresh
 * world, and shrinks every failure to a minimal scenario. Each distinct violation (property and
 * step) is reported once; the search then goes on for others. Same seed, same sequences.
 */
export async function explore(options: ExploreOptions): Promise<ExploreResult> {
  const started = performance.now()
  const factory = toFactory(options.target)
  await factory.probe()
  const sandbox = factory.kind !== 'real'
  const reach: Reach = {
    roles: options.roles ?? SANDBOX_ROLES,
    writes: sandbox || options.allowWrites === true,
    control: sandbox,
  }
  const world = options.world ?? 'multi-workspace'
  const contract = await Contract.load(OPENAPI_PATH)
  const runs = options.runs ?? 100
  const deadline = options.timeBudgetMs === undefined ? Infinity : started + options.timeBudgetMs
  const found = new Map<string, ExploreFinding>()
  const scenarioOf = (actions: Action[]) => assembleScenario({ actions, ignored: new Set(found.keys()), world, seed: options.seed, control: reach.control })
  // The first scenario only names the world to open.
  const session = await openSession(factory, scenarioOf([{ kind: 'read', steps: [{ request: { host: 'api', path: '/v1/me', auth: reach.roles.main } }] }]))
  // The hosted MCP's tools, from the target itself: their schemas are what MCP actions are made of.
  const main = session.target.credentials[reach.roles.main]
  reach.mcpTools = main ? await listMcpTools(session.target.baseUrl, main) : []
  try {
    return await search()
  } finally {
    await session.close()
  }

  async function search(): Promise<ExploreResult> {
  let done = 0
  let round = 0
  let stopped: string | undefined
  while (done < runs) {
    if (performance.now() > deadline) {
      stopped = `time budget of ${Math.round(options.timeBudgetMs! / 1000)} s spent`
      break
    }
    let last: { result: ScenarioResult; scenario: Scenario } | null = null
    const property = fc.asyncProperty(fc.array(actionArbitrary(reach), { minLength: 1, maxLength: options.maxActions ?? 6 }), async (actions) => {
      const outcome = await session.run(contract, scenarioOf(actions))
      const key = outcome.result.outcome === 'failed' ? failureKey(outcome.result) : null
      // A violation already reported shows again only where dropping its check could not hide it.
      if (!key || found.has(key.id)) return true
      last = outcome
      return false
    })
    const details = await fc.check(property, {
      seed: options.seed + round, numRuns: runs - done, endOnFailure: false,
      interruptAfterTimeLimit: Number.isFinite(deadline) ? Math.max(1, deadline - performance.now()) : undefined,
    })
    // Shrinking's evaluations are not counted as runs.
    const tried = details.numRuns
    done += Math.max(1, tried)
    round++
    options.onProgress?.({ runs: Math.min(done, runs), of: runs, findings: found.size + (details.failed ? 1 : 0) })
    if (!details.failed) {
      if (details.interrupted) stopped = `time budget of ${Math.round(options.timeBudgetMs! / 1000)} s spent`
      break
    }
    const failure = last as { result: ScenarioResult; scenario: Scenario } | null
    const key = failure && failureKey(failure.result)
    if (!failure || !key) throw details.errorInstance ?? new Error('explore: a run failed without a result')
    found.set(key.id, { property: key.property, reason: failure.result.reason ?? '', scenario: trimAfterFailure(failure.scenario, failure.result) })
  }
  return { seed: options.seed, runs: Math.min(done, runs), findings: [...found.values()], duration_ms: Math.round(performance.now() - started), ...(stopped ? { stopped } : {}) }
  }
}

/**
 * One target for the whole exploration. With a control plane, the world's state is exported once
 * and imported before each run (`PUT /_sandbox/state`, ≈ 18 ms, where a new world costs ≈ 70-100):
 * every sequence starts from the same world, so the same seed gives the same answers and shrinking
 * compares like with like. A deployment without one is explored read-only, as it is.
 */
async function openSession(factory: TargetFactory, first: Scenario) {
  const target = await factory.open(first)
  const control = target.control
  const snapshot = control ? await control.request<unknown>('GET', '/state') : null
  return {
    async run(contract: Contract | null, scenario: Scenario): Promise<{ result: ScenarioResult; scenario: Scenario }> {
      if (control) await control.request('PUT', '/state', snapshot)
      const result = await runScenario(target.renames ? renameIds(scenario, target.renames) : scenario, {
        target, contract, runId: 'explore', secrets: new Secrets(), contractMode: 'error', env: {},
      })
      return { result, scenario }
    },
    target,
    close: () => target.close(),
  }
}

/** The scenario up to and including its failing step: what follows reproduces nothing. */
function trimAfterFailure(scenario: Scenario, result: ScenarioResult): Scenario {
  const failing = result.steps.findIndex((s) => s.outcome === 'failed')
  // A copy keeps the document it was parsed from (a symbol-keyed property); `scenarioYaml` cuts it as long.
  return failing < 0 ? scenario : Object.assign(Object.create(null) as Scenario, scenario, { steps: scenario.steps.slice(0, failing + 1) })
}
