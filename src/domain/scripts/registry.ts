import type { ScriptExecutor } from './types.js'
import { REPORTING_EXECUTORS } from './reporting.js'
import { CAMPAIGN_STATE_EXECUTORS } from './campaign-state.js'
import { CREATION_EXECUTORS } from './creation.js'
import { ACCOUNT_EXECUTORS } from './account.js'
import type { CatalogEntry } from '../catalog.js'
import { SIMULATED_EXECUTOR } from '../catalog-simulate.js'

const EXECUTORS: Record<string, ScriptExecutor> = {
  ...REPORTING_EXECUTORS, ...CAMPAIGN_STATE_EXECUTORS, ...CREATION_EXECUTORS, ...ACCOUNT_EXECUTORS,
}

/** The executor of a canonical script name; every executable catalog entry has one (tested). */
export function executorFor(script: string): ScriptExecutor {
  const executor = Object.hasOwn(EXECUTORS, script) ? EXECUTORS[script] : undefined
  if (!executor) throw new Error(`no executor for script ${script}`)
  return executor
}

/** The executor of a catalog entry: a loaded catalog's simulated tools share one (issue 35). */
export function executorOf(entry: CatalogEntry): ScriptExecutor {
  return entry.snapshot ? SIMULATED_EXECUTOR : executorFor(entry.name)
}

export function hasExecutor(script: string): boolean {
  return Object.hasOwn(EXECUTORS, script)
}
