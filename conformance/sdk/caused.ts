import type { Scenario } from '../schema.js'
import type { StepSubject } from '../types.js'

/** Journal sequence numbers an `sdk` step's operation caused: `(after, upTo]`. */
export interface CausedRange {
  label: string
  after: number
  upTo: number
}

const lastOf = new WeakMap<Scenario, CausedRange>()
const bySubject = new WeakMap<StepSubject, CausedRange>()

/** The range the `sdk` step with result `subject` caused, or the scenario's latest `sdk` step's. */
export function causedBy(scenario: Scenario, subject?: StepSubject): CausedRange | null {
  return (subject ? bySubject.get(subject) : lastOf.get(scenario)) ?? null
}

/** Notes the range an `sdk` step's operation caused, by its result and as the scenario's latest. */
export function recordCaused(scenario: Scenario, subject: StepSubject, range: CausedRange): void {
  lastOf.set(scenario, range)
  bySubject.set(subject, range)
}
