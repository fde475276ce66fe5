import type { Scenario } from './schema.js'

export interface Selection {
  /** Tags to include; `~tag` excludes. */
  tags?: string[]
  /** Rule ids or prefixes (`KEY-02`, `GATE`). */
  covers?: string[]
  /** Regular expression on id and title. */
  grep?: string
  /** `i/n`: this machine runs shard i of n (1-based), split deterministically by id. */
  shard?: string
}

/** The scenarios a run selects, in a stable order (by id). */
export function selectScenarios(all: Scenario[], selection: Selection = {}): Scenario[] {
  const include = (selection.tags ?? []).filter((t) => !t.startsWith('~'))
  const exclude = (selection.tags ?? []).filter((t) => t.startsWith('~')).map((t) => t.slice(1))
  const grep = selection.grep ? new RegExp(selection.grep, 'i') : null
  const picked = [...all].sort((a, b) => a.id.localeCompare(b.id)).filter((s) =>
    (include.length === 0 || s.tags.some((t) => include.includes(t))) &&
    !s.tags.some((t) => exclude.includes(t)) &&
    (!selection.covers?.length || s.covers.some((c) => selection.covers!.some((want) => c === want || c.startsWith(`${want}-`)))) &&
    (!grep || grep.test(`${s.id} ${s.title}`)))
  if (!selection.shard) return picked
  const { index, count } = parseShard(selection.shard)
  return picked.filter((_, i) => i % count === index - 1)
}

function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text)
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  if (!match || count < 1 || index < 1 || index > count) throw new Error(`--shard must be i/n with 1 ≤ i ≤ n, got ${JSON.stringify(text)}`)
  return { index, count }
}
