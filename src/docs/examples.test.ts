import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import type { CodeBlock } from './code-blocks.js'
import { codeBlocks } from './code-blocks.js'
import type { PageRun } from './run-block.js'
import { preparePage, runBlock } from './run-block.js'

/**
 * Issue 18 item 3: every shell and TypeScript block of README.md and docs/*.md runs, in page
 * order, against a fresh sandbox per page (default world, memory state); a block that cannot run
 * is marked `<!-- not-run: reason -->` and counted. Conventions: docs/architecture.md "How the
 * examples are tested".
 */

const ROOT = resolve(import.meta.dirname, '../..')
const PAGES = ['README.md', ...(await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
const BLOCKS = new Map<string, CodeBlock[]>()
for (const page of PAGES) BLOCKS.set(page, codeBlocks(page, await readFile(join(ROOT, page), 'utf8')))
const ALL = [...BLOCKS.values()].flat()

const PREREQUISITES = ['bash', 'curl', 'jq', 'node']
const missing = PREREQUISITES.filter((tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' })
    return false
  } catch {
    return true
  }
})
// Like the browser tests: a missing tool fails under CI=true instead of skipping unnoticed.
if (missing.length && /^(1|true)$/i.test(process.env.CI ?? '')) throw new Error(`CI=true and the docs examples need ${missing.join(', ')} on PATH`)

describe('the docs examples', () => {
  it('mark every block that does not run, with a reason', () => {
    const unexplained = ALL.filter((b) => b.notRun === '').map((b) => `${b.file}:${b.line}`)
    expect(unexplained).toEqual([])
    const counts = PAGES.map((p) => {
      const blocks = BLOCKS.get(p) ?? []
      return `${p}: ${blocks.filter((b) => b.notRun === undefined).length} run, ${blocks.filter((b) => b.notRun !== undefined).length} not run`
    }).filter((line) => !line.endsWith(': 0 run, 0 not run'))
    process.stdout.write(`docs examples\n  ${counts.join('\n  ')}\n`)
    expect(ALL.filter((b) => b.notRun === undefined).length).toBeGreaterThan(15)
  })
})

const runnable = PAGES.filter((p) => (BLOCKS.get(p) ?? []).some((b) => b.notRun === undefined))

describe.skipIf(missing.length > 0).each(runnable)('%s', { timeout: 120_000 }, (page) => {
  let sandbox: RunningSandbox
  let run: PageRun
  let dir: string
  beforeAll(async () => {
    sandbox = await createSandbox()
    dir = await mkdtemp(join(tmpdir(), 'docs-examples-'))
    run = await preparePage(ROOT, dir, { base: sandbox.baseUrl, api: sandbox.apiUrl })
  })
  afterAll(async () => {
    await sandbox?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const blocks = (BLOCKS.get(page) ?? []).filter((b) => b.notRun === undefined)
  it.each(blocks.map((b) => [`${b.file}:${b.line} ${b.code.split('\n').find((l) => l.trim() && !l.startsWith('#'))?.slice(0, 60) ?? ''}`, b] as const))('%s', async (_name, block) => {
    const result = await runBlock(block, run)
    expect(result.code, `${block.file}:${block.line} failed:\n${result.output.slice(-3000)}`).toBe(0)
  })
})
