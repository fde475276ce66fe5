import { setFlagsFromString } from 'node:v8'

/**
 * How far V8 lets the old generation grow past the live heap before the next full GC, in percent
 * (V8's `--heap-growing-percent`). Left to itself, V8 raises that factor up to 4× the live heap
 * under a sustained write rate: a sandbox with ≈ 30 MB live kept growing its old space to 90–130
 * MB of mostly garbage as the history grew, so RSS after a million writes was 1.66× RSS after ten
 * thousand (docs/benchmarks.md "History growth"). 50 % keeps the heap near the working set at any
 * history length (1.27–1.29×) for ≈ 9 % more CPU on a budget change and 2.5 % on a held write
 * (four times as many full GCs); 30 % cost +26 % CPU and p99 16 → 38 ms. It sets no ceiling: an
 * export of a long history still gets the room it needs.
 */
export const HEAP_GROWING_PERCENT = 50

/**
 * Applies the sandbox's heap policy to this process (`serve` calls it at start-up; V8 reads the
 * flag at every full GC, so setting it at run time takes effect). A `--heap-growing-percent` given
 * to node itself wins. Returns the percent in force, or null when node's own flag is left alone.
 */
export function applyHeapPolicy(options: { execArgv?: readonly string[]; setFlags?: (flags: string) => void } = {}): number | null {
  const { execArgv = process.execArgv, setFlags = setFlagsFromString } = options
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return null
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  return HEAP_GROWING_PERCENT
}
