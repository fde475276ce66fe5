import type { Scenario } from '../schema.js'
import type { TargetFactory } from '../targets.js'
import type { Target } from '../types.js'
import type { SdkAdapter } from './adapter-process.js'

/**
 * The adapter as scenarios share it: one operation at a time (configure + op under one lock), and
 * the configuration it was last given, so a step reconfigures only when its target or overrides differ.
 */
export class SdkSession {
  readonly adapter: SdkAdapter
  lastConfig: string | null = null
  /** `configure` overrides a scenario set with an explicit `op: configure` step. */
  readonly overrides = new WeakMap<Scenario, Record<string, unknown>>()
  #queue: Promise<unknown> = Promise.resolve()

  constructor(adapter: SdkAdapter) {
    this.adapter = adapter
  }

  /** Runs `work` after every earlier operation finished. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work)
    this.#queue = run.catch(() => undefined)
    return run
  }
}

/** A target in SDK mode: the adapter rides along with the hosts. */
export type SdkTarget = Target & { sdk?: SdkSession }

/**
 * Wraps a target factory for SDK mode: every target gains the `sdk` capability (so `sdk` steps run
 * instead of being skipped) and the shared session; `sdk` names the SDK for baseline entries.
 */
export function withSdk(inner: TargetFactory, adapter: SdkAdapter): TargetFactory {
  const session = new SdkSession(adapter)
  return {
    kind: inner.kind,
    describe: `${inner.describe}, SDK ${adapter.identity} via \`${adapter.command}\``,
    capabilities: new Set([...inner.capabilities, 'sdk']),
    isolated: inner.isolated,
    sdk: adapter.identity,
    probe: () => inner.probe(),
    async open(scenario) {
      const target: SdkTarget = await inner.open(scenario)
      target.capabilities = new Set([...target.capabilities, 'sdk'])
      target.sdk = session
      return target
    },
  }
}
