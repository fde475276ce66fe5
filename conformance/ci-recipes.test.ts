import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformInProcess } from '../src/test-support/conform-in-process.js'

/** Runs an `npx adops-sandbox conform …` line in-process: its exit code and output (stdout, then stderr). */
async function conform(args: string[]) {
  const r = await conformInProcess(args)
  return { code: r.code, stdout: r.stdout + r.stderr }
}

/** The fenced blocks of a markdown page with their info string. */
async function blocks(file: string): Promise<Array<{ lang: string; text: string }>> {
  const md = await readFile(file, 'utf8')
  return [...md.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], text: m[2] }))
}

/** `npx adops-sandbox conform a b > log` → `['a', 'b']`, with `out/` (and the README's report files) moved into `dir`. */
function argsOf(line: string, dir: string): string[] {
  const words = line.replace(/\s*>\s*\S+\s*$/, '').trim().split(/\s+/)
  expect(words.slice(0, 3)).toEqual(['npx', 'adops-sandbox', 'conform'])
  return words.slice(3).map((w) => w.replace(/(^|:)out\//, `$1${dir}/`).replace(/(^|:)(conform\.(xml|html))$/, `$1${dir}/$2`))
}

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-ci-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/**
 * Every CI recipe the docs give is run as written and exits 0 on the green suite (issue 37): a CI
 * user who copies one gets a green build.
 */
describe('the documented CI recipes run green', { timeout: 600_000 }, () => {
  it('docs/guide-ci.md: the GitHub Actions job, each shard then the merge with --coverage', async () => {
    const block = (await blocks('docs/guide-ci.md')).find((b) => b.lang === 'yaml' && b.text.includes('matrix'))
    const workflow = parse(block!.text) as { jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; steps: Array<{ run?: string }> }> }
    const runs = (job: string) => workflow.jobs[job].steps.flatMap((s) => (s.run?.startsWith('npx adops-sandbox') ? [s.run] : []))
    const shards = workflow.jobs.conform.strategy!.matrix.shard
    expect(shards).toEqual([1, 2, 3])
    for (const shard of shards) {
      for (const line of runs('conform')) {
        const r = await conform(argsOf(line.replaceAll('${{ matrix.shard }}', String(shard)), dir))
        expect(r.code, `shard ${shard}: ${r.stdout.slice(-2000)}`).toBe(0)
        expect(r.stdout).toMatch(/the coverage gate runs at `conform merge --coverage`/)
      }
    }
    const [merge] = runs('coverage')
    const files = (await readdir(dir)).filter((f) => /^shard-\d\.json$/.test(f)).sort().map((f) => join(dir, f))
    expect(files).toHaveLength(3)
    const args = argsOf(merge, dir).flatMap((a) => (a.endsWith('shard-*.json') ? files : [a]))
    const merged = await conform(args)
    expect(merged.code, merged.stdout.slice(-2000)).toBe(0)
    // The gate ran over the whole: every applicable rule passing, the SDK rules named as not applicable.
    expect(merged.stdout).toMatch(/rule coverage 100%: (\d+) of \1 rule ids passing in this run, 0 failing, 0 not run/)
    expect(merged.stdout).toMatch(/not applicable \(the target lacks a capability, not counted\): SDK-01/)
    expect(existsSync(join(dir, 'report.html'))).toBe(true)
  })

  it('README.md: the CI lines write JUnit and HTML and exit 0', async () => {
    const block = (await blocks('README.md')).find((b) => b.text.includes('--reporter junit:conform.xml'))
    const line = block!.text.split('\n').find((l) => l.startsWith('npx adops-sandbox conform'))!
    const r = await conform(argsOf(line, dir))
    expect(r.code, r.stdout.slice(-2000)).toBe(0)
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/)
    for (const file of ['conform.xml', 'conform.html']) expect(existsSync(join(dir, file)), file).toBe(true)
  })

  it('.gitignore covers the files the README’s CI lines write in the repository root', async () => {
    const ignored = (await readFile('.gitignore', 'utf8')).split('\n')
    for (const file of ['conform.xml', 'conform.html']) expect(ignored).toContain(file)
    expect(ignored).toContain('*.log')
  })
})
