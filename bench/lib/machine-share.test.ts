import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { busyMsOf, openWindow, othersCores } from './machine-share.js'
import { contentionLines } from './report.js'

describe('the share of the machine other processes take during a load run', () => {
  it('reads busy time from /proc/stat as user + nice + system + irq + softirq + steal, in 10 ms ticks', () => {
    expect(busyMsOf('cpu  100 2 30 900 7 0 5 3 0 0\ncpu0 50 1 15 450 3 0 2 1 0 0\n')).toBe((100 + 2 + 30 + 0 + 5 + 3) * 10)
    expect(busyMsOf('cpu  100 2 30 900 7 0 5\n')).toBe((100 + 2 + 30 + 5) * 10)
    expect(busyMsOf('intr 1 2 3\n')).toBeNull()
  })

  it.each([
    ['a quiet machine: all busy time is the server and the harness', { busy: 1_500, server: 900, harness: 600 }, 0],
    ['a process holding one core for the whole second', { busy: 2_500, server: 900, harness: 600 }, 1],
    ['tick rounding that makes the others read below zero', { busy: 1_490, server: 900, harness: 600 }, 0],
  ])('%s', (_, used, cores) => {
    const start = { wallMs: 0, busyMs: 0, serverMs: 0, harnessMs: 0 }
    expect(othersCores(start, { wallMs: 1_000, busyMs: used.busy, serverMs: used.server, harnessMs: used.harness })).toBe(cores)
  })

  it('measures this machine without a server pid (the harness alone)', () => {
    const share = openWindow().end().othersCores
    if (process.platform !== 'linux') return expect(share).toBeNull()
    // A share of this machine's cores in hundredths (clamped at 0: the table above tests the clamp).
    expect(Number.isFinite(share)).toBe(true)
    expect(Math.round(share! * 100) / 100).toBe(share)
    expect(share).toBeLessThanOrEqual(availableParallelism())
  })

  const results = (others: number[]) => ({
    machine: { cpu: 'x', cores: 2, memory_gb: 1, node: 'v20', os: 'linux', loadavg_start: [0] },
    write: [{ runs: others.map((n) => ({ sandbox: { others_cores: n }, prism: { others_cores: n } })) }],
  }) as unknown as Parameters<typeof contentionLines>[0]

  it('says how much other processes took, and warns only when it was enough to compress req/s ratios', () => {
    const quiet = contentionLines(results([0.02, 0.05, 0.1]))
    expect(quiet).toEqual(['Other processes used 0.05 of the 2 cores during the load rounds (median of 6 runs; at most 0.1).'])
    const busy = contentionLines(results([0.9, 1.0, 1.1]))
    expect(busy[0]).toContain('used 1 of the 2 cores')
    expect(busy[1]).toMatch(/^⚠ Contended machine/)
    expect(contentionLines(results([]))).toEqual([])
  })
})
