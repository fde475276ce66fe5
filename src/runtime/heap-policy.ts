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
 * The V8 settings `serve` applies, each with why. Allocation-site pretenuring is off: V8 saw the
 * objects of a request's history rows, windows and journal entries survive a scavenge or two and
 * began allocating them straight in the old space, where they died by the thousand a second; the
 * old space grew ≈ 600 KB per scavenge under `list_campaigns` while scavenges promoted ≈ 150 KB,
 * and full GCs came 1.4× as often (bench/README.md, findings). A steady server has few objects
 * that pretenuring would rightly place.
 */
const HEAP_FLAGS: ReadonlyArray<{ name: string; flag: string }> = [
  { name: 'heap-growing-percent', flag: `--heap-growing-percent=${HEAP_GROWING_PERCENT}` },
  { name: 'allocation-site-pretenuring', flag: '--no-allocation-site-pretenuring' },
]

/**
 * Applies the sandbox's heap policy to this process (`serve` calls it at start-up, before the
 * state is loaded; V8 reads both flags as it goes, so setting them at run time takes effect). A
 * flag given to node itself (either spelling, with or without `no-`) wins. Returns the flags set.
 */
export function applyHeapPolicy(options: { execArgv?: readonly string[]; setFlags?: (flags: string) => void } = {}): string[] {
  const { execArgv = process.execArgv, setFlags = setFlagsFromString } = options
  const given = (name: string) => {
    const pattern = new RegExp(`^--(no-)?${name.replace(/-/g, '[-_]')}(=|$)`)
    return execArgv.some((arg) => pattern.test(arg))
  }
  const set = HEAP_FLAGS.filter(({ name }) => !given(name)).map(({ flag }) => flag)
  for (const flag of set) setFlags(flag)
  return set
}
