import type { Deps } from '../ports.js'
import type { Workspace } from '../model.js'
import type { PreparedCall } from '../args.js'
import type { WriteIntent } from '../policy.js'

/** What a script executor gets: storage, the acting workspace and the validated call. */
export interface ScriptContext {
  deps: Deps
  workspace: Workspace
  key_id: string
  call: PreparedCall
}

/** Checks against state before anything is charged (404, unknown artifact…) and what the gate needs. */
export interface Preflight {
  budget?: WriteIntent['budget']
}

/** A script's outcome; writes say what changed as `before` / `after`. */
export interface RunResult {
  result: Record<string, unknown>
  before?: unknown
  after?: unknown
}

/** One executor per script; `preflight` throws 4xx refusals that must cost nothing (ERR-05). */
export interface ScriptExecutor {
  preflight?(ctx: ScriptContext): Preflight
  run(ctx: ScriptContext): RunResult
}

/** A typed flag value (validated by `parseArgs`, so the cast only narrows). */
export function str(ctx: ScriptContext, key: string): string {
  return ctx.call.values[key] as string
}

export function optional<T>(ctx: ScriptContext, key: string): T | undefined {
  return ctx.call.values[key] as T | undefined
}
