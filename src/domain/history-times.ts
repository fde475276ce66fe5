type Entry = { at: string }

/**
 * The instants of a history's entries (`status_history`, `budget_history`), parsed once per entry
 * and listed once per history array. Metrics walk a campaign's histories several times per row
 * (ended-day key, today's enabled time, when today's row next changes), and a list rebuilds the row
 * of every campaign changed since the last one: `Date.parse` (≈ 200 ns) on each entry each time was
 * most of that (bench/README.md). A change makes a new history array but shares its old entries,
 * so only the new entry is parsed. Histories and entries are replaced, never edited in place
 * (`changeStatus`, `changeBudget`); the length check is a guard.
 */
export function timesOf(history: readonly Entry[]): readonly number[] {
  let times = lists.get(history)
  if (times === undefined || times.length !== history.length) {
    times = history.map(instantOf)
    lists.set(history, times)
  }
  return times
}

/** One entry's instant, parsed once (`timesOf` lists them per history). */
export function instantOf(entry: Entry): number {
  let ms = instants.get(entry)
  if (ms === undefined) {
    ms = Date.parse(entry.at)
    instants.set(entry, ms)
  }
  return ms
}

const lists = new WeakMap<readonly Entry[], number[]>()
const instants = new WeakMap<Entry, number>()
