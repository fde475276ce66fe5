import type { ScriptExecutor } from './types.js'
import { REPORTING_EXECUTORS } from './reporting.js'
import { CAMPAIGN_STATE_EXECUTORS } from './campaign-state.js'
import { CREATION_EXECUTORS } from './creation.js'
import { ACCOUNT_EXECUTORS } from './account.js'

const EXECUTORS: Record<string, ScriptExecutor> = {
  ...REPORTING_EXECUTORS, ...CAMPAIGN_STATE_EXECUTORS, ...CREATION_EXECUTORS, ...ACCOUNT_EXECUTORS,
}

/** The executor of a canonical script name; every executable catalog entry has one (tested). */
export function executorFor(script: string): ScriptExecutor {
  const executor = Object.hasOwn(EXECUTORS, script) ? EXECUTORS[script] : undefined
  if (!executor) throw new Error(`no executor for script ${script}`)
  return executor
}

export function hasExecutor(script: string): boolean {
  return Object.hasOwn(EXECUTORS, script)
}
