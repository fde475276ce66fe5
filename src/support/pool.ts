/**
 * Runs `work` over `items` with at most `jobs` at once (at least one); results keep the items'
 * order. Shared by the conformance runner and the rehearsal runner.
 */
export async function inParallel<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await work(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker))
  return results
}
