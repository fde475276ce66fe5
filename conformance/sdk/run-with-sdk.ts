import type { RunOptions, RunResult } from '../runner.js'
import { runScenarios } from '../runner.js'
import type { TargetFactory, TargetSpec } from '../targets.js'
import { makeTarget } from '../targets.js'
import { SdkAdapter } from './adapter-process.js'
import { withSdk } from './sdk-target.js'

/**
 * SDK mode (`conform --sdk "<command>"`): spawns the adapter once, runs the scenarios with `sdk`
 * steps going through it, and stops it at the end, whatever happened.
 */
export async function runWithSdk(command: string, options: RunOptions): Promise<RunResult> {
  const adapter = await SdkAdapter.start(command)
  try {
    const inner: TargetFactory = isFactory(options.target) ? options.target : makeTarget(options.target as TargetSpec | undefined)
    return await runScenarios({ ...options, target: withSdk(inner, adapter) })
  } finally {
    await adapter.close()
  }
}

function isFactory(t: RunOptions['target']): t is TargetFactory {
  return typeof (t as TargetFactory | undefined)?.open === 'function'
}
