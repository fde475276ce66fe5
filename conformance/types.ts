import type { ControlClient } from '../src/client/control-client.js'
import type { Scenario, Step } from './schema.js'

/** Capabilities a target may have; a scenario or step that needs a missing one is skipped. */
export const CAPABILITIES = ['control', 'clock', 'faults', 'journal'] as const
export type Capability = (typeof CAPABILITIES)[number] | (string & {})

/** One isolated place to run a scenario: its hosts, named credentials and optional control plane. */
export interface Target {
  /** `sandbox` (in-process), `url` (a running sandbox) or `real` (a deployment). */
  kind: 'sandbox' | 'url' | 'real'
  baseUrl: string
  apiUrl: string
  capabilities: ReadonlySet<Capability>
  /** Named credentials (`auth: owner`): world keys on a sandbox, `--key name=value` on a real one. */
  credentials: Record<string, string>
  control: ControlClient | null
  /** Admin token of a running sandbox (`--admin-token`): its MCP sign-in page asks for it. */
  adminToken?: string
  /** A scenario in a world copy (issue 19): its workspaces, whose own clocks `clock` and `wait` steps move. */
  workspaceClocks?: string[]
  /** A scenario in a world copy: world id → copy id, applied to the scenario before it runs. */
  renames?: Record<string, string>
  close(): Promise<void>
}

/** One HTTP exchange as the runner saw it. */
export interface Exchange {
  host: 'base' | 'api' | 'url'
  method: string
  url: string
  path: string
  request: { headers: Record<string, string>; query: Record<string, string>; body: unknown }
  response: { status: number; headers: Record<string, string>; body: unknown; text: string }
  duration_ms: number
}

/** What a step produced: `expect`, `capture` and `poll` look at `status`, `headers` and `body`. */
export interface StepSubject {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  exchange?: Exchange
  /** Set when the step decided not to run (e.g. a capability is missing); the reason is reported. */
  skipped?: string
  /** Extra transcript lines. */
  notes?: string[]
  /** Results of nested steps (an `include`). */
  children?: StepResult[]
}

/** What a step kind's `run` gets. */
export interface StepContext {
  target: Target
  /** Renders `${{ }}` templates in any value against vars, captures, env and the world. */
  render<T>(value: T): T
  /** Previous subjects by step id (e.g. `wait.retry_after_from`). */
  subjects: ReadonlyMap<string, StepSubject>
  /** Runs nested steps (used by `include`) in the same scenario scope. */
  runSteps(steps: Step[], params: Record<string, unknown>): Promise<StepResult[]>
  scenario: Scenario
  /** Journal sequence number when the scenario started (journal steps read only later entries). */
  journalSince: number
}

export type Outcome = 'passed' | 'failed' | 'skipped'

/** A contract finding for one exchange. */
export interface Violation {
  location: string
  message: string
  severity: 'error' | 'warn'
}

export interface StepResult {
  index: number
  label: string
  kind: string
  outcome: Outcome
  /** Why a step failed or was skipped. */
  reason?: string
  /** Expected vs given, for the diff in reports. */
  diff?: { path: string; expected: unknown; given: unknown }[]
  attempts: number
  duration_ms: number
  exchange?: Exchange
  violations: Violation[]
  notes: string[]
  /** Nested results (an `include`). */
  children?: StepResult[]
}

export interface ScenarioResult {
  id: string
  file: string
  title: string
  covers: string[]
  tags: string[]
  outcome: Outcome
  reason?: string
  /** Listed in the baseline: a failure is expected; `stale` when it passed anyway. */
  baseline?: { reason: string; stale: boolean }
  steps: StepResult[]
  duration_ms: number
}

export interface RunSummary {
  passed: number
  failed: number
  skipped: number
  violations: number
  expected_failures: number
  stale: number
  duration_ms: number
}
