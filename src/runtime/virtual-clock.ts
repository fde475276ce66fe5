import type { Clock } from '../domain/ports.js'

export interface ClockState {
  offset_ms: number
  frozen_at: number | null
}

/**
 * Sandbox time: wall time plus an offset, or frozen at an instant (DESIGN "Sandbox time").
 * The only place that reads the wall clock; everything else asks `now()`.
 */
export class VirtualClock implements Clock {
  #state: ClockState
  readonly #wall: () => number

  constructor(state: ClockState = { offset_ms: 0, frozen_at: null }, wall: () => number = Date.now) {
    this.#state = { ...state }
    this.#wall = wall
  }

  now(): number {
    return this.#state.frozen_at ?? this.#wall() + this.#state.offset_ms
  }

  advance(ms: number): void {
    if (this.#state.frozen_at !== null) this.#state.frozen_at += ms
    else this.#state.offset_ms += ms
  }

  set(at: number): void {
    if (this.#state.frozen_at !== null) this.#state.frozen_at = at
    else this.#state.offset_ms = at - this.#wall()
  }

  freeze(frozen: boolean): void {
    if (frozen && this.#state.frozen_at === null) this.#state.frozen_at = this.now()
    if (!frozen && this.#state.frozen_at !== null) {
      this.#state.offset_ms = this.#state.frozen_at - this.#wall()
      this.#state.frozen_at = null
    }
  }

  state(): ClockState {
    return { ...this.#state }
  }

  restore(state: ClockState): void {
    this.#state = { ...state }
  }
}
