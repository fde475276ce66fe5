import type { RunOptions, RunResult } from '../runner.js'
import { runScenarios } from '../runner.js'
import { toFactory } from '../targets.js'
import { SdkAdapter } from './adapter-process.js'
import { withSdk } from './sdk-target.js'

/**
 * SDK mode (`conform --sdk "<command>"`): spawns the adapter once, runs the scenarios with `sdk`
 * steps going through it, and stops it at the end, whatever happened.
 */
export async function runWithSdk(command: string, options: RunOptions): Promise<RunResult> {
  const adapter = await SdkAdapter.start(command)
  try {
    return await runScenarios({ ...options, target: withSdk(toFactory(options.target), adapter) })
  } finally {
    await adapter.close()
  }
}
