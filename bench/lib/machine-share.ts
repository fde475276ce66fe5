import { readFileSync } from 'node:fs'
import { cpuTimeMs } from './processes.js'

/**
 * The measured server's CPU time while a load ran, and how much of the machine other processes took
 * meanwhile: the cores busy with anything but that server and the harness itself (autocannon runs in it). On this 2-core machine a
 * closed-loop req/s ratio needs both cores for the sandbox's side (its server and the load
 * generator each keep one busy) but only one for Prism's (its answers, not the load generator, are
 * the bottleneck), so a process holding a core compresses req/s ratios while CPU per answer moves
 * far less (bench/README.md): results show this figure so a low ratio can be told from a slow server.
 */
export interface Window {
  /** What the window saw since it opened. */
  end(): WindowFigures
}

export interface WindowFigures {
  /** CPU time of the measured server (user + system), ms; null without a pid or off Linux. */
  serverMs: number | null
  /** Cores other processes used on average; null where /proc/stat is unreadable. */
  othersCores: number | null
}

/** Opens a window over the machine's and the server's CPU time; `pid` is the measured server's. */
export function openWindow(pid?: number): Window {
  const start = sample(pid)
  return {
    end: () => {
      const stop = sample(pid)
      const serverMs = pid && start.serverMs !== null && stop.serverMs !== null ? stop.serverMs - start.serverMs : null
      return { serverMs, othersCores: hasShares(start) && hasShares(stop) ? othersCores(start, stop) : null }
    },
  }
}

/** Server CPU ms per answered request, to the microsecond; null when either is missing. */
export function perRequest(serverMs: number | null, answered: number): number | null {
  return serverMs !== null && answered ? Math.round((serverMs / answered) * 1000) / 1000 : null
}

/** One reading: wall time, the machine's busy CPU, the server's and the harness's (all ms). */
export interface Sample {
  wallMs: number
  busyMs: number
  serverMs: number
  harnessMs: number
}

/** Cores used by everything but the server and the harness between two samples, never below 0. */
export function othersCores(start: Sample, stop: Sample): number {
  const wall = stop.wallMs - start.wallMs
  if (wall <= 0) return 0
  const others = stop.busyMs - start.busyMs - (stop.serverMs - start.serverMs) - (stop.harnessMs - start.harnessMs)
  // Tick-granular counters (10 ms) make a quiet machine read a few ms below zero now and then.
  return Math.max(0, Math.round((others / wall) * 100) / 100)
}

/**
 * Busy CPU time of the whole machine from `/proc/stat`'s first line (user, nice, system, irq,
 * softirq and steal, in 100 Hz ticks): steal is time the hypervisor gave to other machines, noise
 * for these figures as much as a local process.
 */
export function busyMsOf(procStat: string): number | null {
  const line = procStat.split('\n', 1)[0]
  if (!line.startsWith('cpu ')) return null
  const [user, nice, system, , , irq, softirq, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number)
  const busy = user + nice + system + irq + softirq + steal
  return Number.isFinite(busy) ? busy * 10 : null
}

type Reading = Omit<Sample, 'busyMs' | 'serverMs'> & { busyMs: number | null; serverMs: number | null }

function hasShares(reading: Reading): reading is Sample {
  return reading.busyMs !== null && reading.serverMs !== null
}

function sample(pid?: number): Reading {
  let busyMs: number | null = null
  try {
    busyMs = busyMsOf(readFileSync('/proc/stat', 'utf8'))
  } catch {
    // Off Linux: no machine figure, and `cpuTimeMs` reads null too.
  }
  const own = process.cpuUsage()
  return { wallMs: performance.now(), busyMs, serverMs: pid ? cpuTimeMs(pid) : 0, harnessMs: (own.user + own.system) / 1000 }
}
