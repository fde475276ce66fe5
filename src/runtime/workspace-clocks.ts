import type { Clock, Store } from '../domain/ports.js'
import type { VirtualClock } from './virtual-clock.js'

const LATEST = Date.parse('9999-12-31T23:59:59.999Z')
import type { WorkspaceClockState } from '../domain/model.js'

/** What `GET /_sandbox/workspaces/{id}/clock` answers. */
export interface WorkspaceClockView {
  workspace_id: string
  /** True when the workspace has its own clock; false: it reads the sandbox clock. */
  own: boolean
  now: number
  /** Whether the clock the workspace reads (its own, else the sandbox clock) is frozen. */
  frozen: boolean
  /** Milliseconds ahead of the sandbox clock (negative: behind); while frozen, as of now. */
  offset_ms: number
}

/**
 * Per-workspace test clocks (issue 19): each is an offset from the sandbox clock, or frozen at an
 * instant, kept on the workspace row (`clock`) so it persists, exports and resets with the state.
 * An unfrozen workspace clock moves whenever the sandbox clock moves (wall time or `POST /_sandbox/clock`).
 */
export class WorkspaceClocks {
  readonly #store: Store
  readonly #sandbox: VirtualClock

  constructor(store: Store, sandbox: VirtualClock) {
    this.#store = store
    this.#sandbox = sandbox
  }

  /** The clock time rules about `workspaceId` read (the `Deps.clockFor` port). */
  clockFor(workspaceId: string): Clock {
    const state = this.#store.workspaces.get(workspaceId)?.clock
    if (!state) return this.#sandbox
    return { now: () => this.#read(state) }
  }

  view(workspaceId: string): WorkspaceClockView {
    const state = this.#store.workspaces.get(workspaceId)?.clock ?? null
    const now = state ? this.#read(state) : this.#sandbox.now()
    return { workspace_id: workspaceId, own: state !== null, now, frozen: state ? state.frozen_at !== null : this.#sandbox.state().frozen_at !== null, offset_ms: now - this.#sandbox.now() }
  }

  /** Applies `set`, then `advance`, then `freeze` (as `POST /_sandbox/clock` does), giving the workspace its own clock first if needed. */
  change(workspaceId: string, change: { set?: number; advance?: number; freeze?: boolean }): void {
    const sandbox = this.#sandbox.now()
    const state: WorkspaceClockState = { ...(this.#store.workspaces.get(workspaceId)?.clock ?? { offset_ms: 0, frozen_at: null }) }
    if (change.set !== undefined) {
      if (state.frozen_at !== null) state.frozen_at = change.set
      else state.offset_ms = change.set - sandbox
    }
    if (change.advance !== undefined) {
      if (state.frozen_at !== null) state.frozen_at += change.advance
      else state.offset_ms += change.advance
    }
    if (change.freeze === true && state.frozen_at === null) state.frozen_at = sandbox + state.offset_ms
    if (change.freeze === false && state.frozen_at !== null) {
      state.offset_ms = state.frozen_at - sandbox
      state.frozen_at = null
    }
    this.#store.workspaces.update(workspaceId, { clock: state })
  }

  /** Drops the workspace's own clock: it reads the sandbox clock again. */
  release(workspaceId: string): void {
    this.#store.workspaces.update(workspaceId, { clock: null })
  }

  // Clamped to the range ISO text can render: a later sandbox-clock move cannot push a workspace past it.
  #read(state: WorkspaceClockState): number {
    return Math.min(Math.max(state.frozen_at ?? this.#sandbox.now() + state.offset_ms, 0), LATEST)
  }
}
