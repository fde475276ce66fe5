type Entry = { at: string }

/**
 * The instants of a history's entries (`status_history`, `budget_history`), listed once per
 * history array. Metrics walk a campaign's histories several times per row (ended-day key, today's
 * enabled time, when today's row next changes), and a list rebuilds the row of every campaign
 * changed since the last one (bench/README.md). Histories and entries are replaced, never edited in
 * place (`changeStatus`, `changeBudget`); the length check is a guard.
 */
export function timesOf(history: readonly Entry[]): readonly number[] {
  let times = lists.get(history)
  if (times === undefined || times.length !== history.length) {
    times = history.map((entry) => parseInstant(entry.at))
    lists.set(history, times)
  }
  return times
}

/**
 * `[...history.filter(keep), entry]` with its instants listed from those of `history`: a status or
 * budget change parses only the entry it adds, so the next row built from the new version (every
 * list in an agent loop rebuilds the rows changed since the last) lists nothing again.
 */
export function appendEntry<T extends Entry>(history: readonly T[], entry: T, keep?: (entry: T, i: number) => boolean): T[] {
  const before = timesOf(history)
  const next: T[] = []
  const times: number[] = []
  for (let i = 0; i < history.length; i++) {
    if (keep && !keep(history[i], i)) continue
    next.push(history[i])
    times.push(before[i])
  }
  next.push(entry)
  times.push(parseInstant(entry.at))
  lists.set(next, times)
  return next
}

const lists = new WeakMap<readonly Entry[], number[]>()

/**
 * `Date.parse(text)`, read by hand when the text is what `toISOString` writes for years 1000-9999
 * (`2026-03-01T09:30:00.250Z`, every instant the sandbox stamps): `Date.parse` is ≈ 200 ns, and a
 * cache of parsed entries (a WeakMap per entry) cost as much in lookups and in the garbage
 * collector's work on its ephemerons. Any other text, an impossible date included, goes to `Date.parse`.
 */
export function parseInstant(text: string): number {
  if (text.length !== 24 || text.charCodeAt(23) !== Z) return Date.parse(text)
  const year = digits(text, 0, 4)
  const month = digits(text, 5, 2)
  const day = digits(text, 8, 2)
  const hour = digits(text, 11, 2)
  const minute = digits(text, 14, 2)
  const second = digits(text, 17, 2)
  const ms = digits(text, 20, 3)
  if (!separated(text) || year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 ||
    (hour | minute | second | ms) < 0 || hour > 23 || minute > 59 || second > 59) return Date.parse(text)
  // Like V8's Date.parse, a day past the month's end (up to 31) runs into the next month.
  return Date.UTC(year, month - 1, day, hour, minute, second, ms)
}

const Z = 90
const SEPARATORS: ReadonlyArray<readonly [number, number]> = [[4, 45], [7, 45], [10, 84], [13, 58], [16, 58], [19, 46]]

function separated(text: string): boolean {
  for (const [at, code] of SEPARATORS) if (text.charCodeAt(at) !== code) return false
  return true
}

// The number the `length` digits at `from` spell, or -1 when one is not a digit.
function digits(text: string, from: number, length: number): number {
  let n = 0
  for (let i = from; i < from + length; i++) {
    const d = text.charCodeAt(i) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}
