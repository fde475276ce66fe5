import type { ControlClient } from '../src/client/control-client.js'
import type { Scenario } from './schema.js'
import type { Target } from './types.js'

const NEEDED = ['POST /_sandbox/world-copies', 'POST /_sandbox/workspaces/:id/clock']

/**
 * Whether a running sandbox can host scenarios side by side: it seeds world copies and has
 * per-workspace clocks. Asked once per run from the control plane's route index; an older
 * sandbox (or any refusal) answers false and the run stays serial on the sandbox clock.
 */
export async function supportsWorldCopies(control: ControlClient): Promise<boolean> {
  try {
    const index = await control.request<{ routes?: string[] }>('GET', '/')
    return NEEDED.every((r) => index.routes?.includes(r))
  } catch {
    return false
  }
}

/**
 * A scenario that can run in its own world copy next to others: not serial, and it neither resets
 * the sandbox, nor scripts faults or reads the journal (both shared by every copy).
 */
export function runsInCopy(scenario: Scenario): boolean {
  if (scenario.serial || scenario.isolation === 'serial') return false
  if (!/^[A-Za-z0-9_-]+$/.test(scenario.world)) return false
  if (scenario.requires.some((c) => c === 'faults' || c === 'journal')) return false
  const steps = [...scenario.setup, ...scenario.steps, ...scenario.teardown] as Array<Record<string, unknown>>
  return !steps.some((s) => {
    const control = s.control as Record<string, unknown> | undefined
    return control !== undefined && (control.reset !== undefined || control.world !== undefined || control.fault !== undefined)
  })
}

/** The scenario with every id its world names (`ws_acme`, `usr_olivia`, …) replaced by the copy's id, in values and keys. */
export function renameIds(scenario: Scenario, ids: Record<string, string>): Scenario {
  const pairs = Object.entries(ids).map(([from, to]) => [new RegExp(`(?<![A-Za-z0-9_])${from.replace(/[^A-Za-z0-9_]/g, '\\$&')}(?![A-Za-z0-9_])`, 'g'), to] as const)
  const text = (s: string) => pairs.reduce((acc, [re, to]) => acc.replace(re, to), s)
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value)
    if (Array.isArray(value)) return value.map(walk)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v)]))
    return value
  }
  const { file, id, title, covers, tags, world, requires, serial, isolation } = scenario
  const renamed = walk({ vars: scenario.vars, setup: scenario.setup, steps: scenario.steps, teardown: scenario.teardown }) as Pick<Scenario, 'vars' | 'setup' | 'steps' | 'teardown'>
  return { file, id, title, covers, tags, world, requires, serial, isolation, ...renamed }
}

/**
 * Moves the clock a scenario sees: the copy's workspace clocks when it runs in a world copy (every
 * workspace of the copy alike; the first one's reading is the answer), else the sandbox clock.
 */
export async function changeScenarioClock(target: Target, change: { advance?: string | number; set?: string; freeze?: boolean }): Promise<{ path: string; body: { now: string } }> {
  const control = target.control!
  const workspaces = target.workspaceClocks ?? []
  if (workspaces.length === 0) return { path: '/clock', body: await control.request('POST', '/clock', change) }
  const answers = []
  for (const id of workspaces) answers.push(await control.changeWorkspaceClock(id, change))
  return { path: `/workspaces/${workspaces[0]}/clock`, body: answers[0] }
}
