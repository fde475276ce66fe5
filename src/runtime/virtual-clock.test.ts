import { describe, expect, it } from 'vitest'
import { VirtualClock } from './virtual-clock.js'

describe('VirtualClock', () => {
  it('runs with the wall clock plus an offset, and freezes and thaws without jumping', () => {
    let wall = 1_000
    const clock = new VirtualClock(undefined, () => wall)
    clock.advance(500)
    expect(clock.now()).toBe(1_500)
    wall = 2_000
    expect(clock.now()).toBe(2_500)
    clock.freeze(true)
    wall = 9_000
    expect(clock.now()).toBe(2_500)
    clock.advance(100)
    clock.freeze(false)
    expect(clock.now()).toBe(2_600)
    wall = 9_400
    expect(clock.now()).toBe(3_000)
  })

  it('sets an instant whether frozen or running, and restores a saved state', () => {
    let wall = 0
    const clock = new VirtualClock(undefined, () => wall)
    clock.set(50_000)
    wall = 10
    expect(clock.now()).toBe(50_010)
    clock.freeze(true)
    clock.set(70_000)
    expect(clock.now()).toBe(70_000)
    const saved = clock.state()
    clock.restore({ offset_ms: 0, frozen_at: null })
    expect(clock.now()).toBe(10)
    clock.restore(saved)
    expect(clock.now()).toBe(70_000)
  })
})
