/**
 * The candidate closest to `word` by edit distance, or null when none is close enough (at most a
 * third of the word's letters, and at least 2, may differ). Used for every "did you mean" hint:
 * YAML keys, credential, world, capability and rule-id names, CLI subcommands.
 */
export function closest(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase())
    if (d < bestDistance) [best, bestDistance] = [c, d]
  }
  return best
}

/** ` (did you mean `x`?)`, or a list of the known names when none is close. */
export function suggestion(word: string, candidates: string[], noun = 'known'): string {
  const best = closest(word, candidates)
  if (best) return ` (did you mean \`${best}\`?)`
  return candidates.length ? ` (${noun}: ${candidates.slice(0, 12).join(', ')}${candidates.length > 12 ? ', …' : ''})` : ''
}

/** Levenshtein distance with one row of memory. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = row[j]
      row[j] = next
    }
  }
  return row[b.length]
}
