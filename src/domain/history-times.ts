/**
 * The instants of a history's entries (`status_history`, `budget_history`), parsed once per history
 * array. Metrics walk a campaign's histories several times per row (ended-day key, today's enabled
 * time, when today's row next changes), and a list rebuilds the row of every campaign changed since
 * the last one: `Date.parse` on each entry each time was most of that (bench/README.md). Histories
 * are replaced, never edited in place (`changeStatus`, `changeBudget`); the length check is a guard.
 */
export function timesOf(history: ReadonlyArray<{ at: string }>): readonly number[] {
  let times = parsed.get(history)
  if (times === undefined || times.length !== history.length) {
    times = history.map((entry) => Date.parse(entry.at))
    parsed.set(history, times)
  }
  return times
}

const parsed = new WeakMap<ReadonlyArray<{ at: string }>, number[]>()
