import { z } from 'zod'
import type { StepContext, StepSubject } from '../types.js'

/**
 * A step kind: the YAML key that selects it, its zod schema, the target capabilities it needs and
 * how it runs. `request`, `control`, `wait`, `journal` and `include` are built in; other modules add
 * theirs (an `mcp` or `sdk` step) by calling `registerStepKind` from their own file before loading.
 */
export interface StepKind<T = unknown> {
  /** The key of the step in YAML, e.g. `request`. */
  name: string
  /** Validates the value under that key; use `z.strictObject` so typos are errors. */
  schema: z.ZodType<T>
  /** Capabilities the target must have, e.g. `['clock']`; a target without them skips the step. */
  requires?: (value: T) => string[]
  /** Runs the step; its result is what `expect`, `capture` and `poll` look at. */
  run: (value: T, ctx: StepContext) => Promise<StepSubject>
  /** True when the result is an HTTP exchange that the contract should check. */
  exchange?: boolean
  /** A short summary of the step for transcripts (default: the keys it sets). */
  label?: (value: T) => string
}

const kinds = new Map<string, StepKind<any>>()

/** Adds (or replaces) a step kind. Call before `loadScenarios`/`runScenarios`. */
export function registerStepKind<T>(kind: StepKind<T>): void {
  kinds.set(kind.name, kind as StepKind<any>)
}

export function stepKind(name: string): StepKind<unknown> | undefined {
  return kinds.get(name)
}

export function stepKindNames(): string[] {
  return [...kinds.keys()]
}

/** The registered kinds' schemas keyed by name, each optional (a step holds exactly one). */
export function stepKindShape(): Record<string, z.ZodOptional<z.ZodType>> {
  return Object.fromEntries([...kinds.values()].map((k) => [k.name, k.schema.optional()]))
}
