import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockName, PageSession } from './page-session.js'
import { missingPrerequisites, prerequisiteMessage } from './prerequisites.js'

/**
 * Every sh/bash/shell and ts/typescript block of README.md and docs/*.md runs against a fresh
 * sandbox per page, in page order (one vitest test per block). See docs/architecture.md,
 * "How examples are tested".
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const files = ['README.md', ...readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
const missing = missingPrerequisites()
const BLOCK_TIMEOUT = 110_000

describe('docs examples: prerequisites', () => {
  it('bash, curl, jq and node are on PATH (a missing one fails under CI=true)', () => {
    if (missing.length > 0 && process.env.CI !== 'true') console.warn(`SKIPPING docs examples: ${prerequisiteMessage(missing)}`)
    if (process.env.CI === 'true') expect(missing, prerequisiteMessage(missing)).toEqual([])
  })
})

for (const file of files) {
  const session = new PageSession(file, path.join(repoRoot, file), repoRoot, BLOCK_TIMEOUT)
  if (session.blocks.length === 0) continue
  describe.skipIf(missing.length > 0).sequential(`docs examples: ${file}`, () => {
    beforeAll(() => session.open(), 20_000)
    afterAll(async () => {
      console.log(session.summary())
      await session.close()
    })
    for (const block of session.blocks) {
      const name = blockName(file, block)
      if (block.notRun !== null) {
        // Counted, not skipped: the marker is the claim, and it must say why the block cannot run.
        const reason = block.notRun
        it(`${name} is marked not-run: ${reason || '(no reason)'}`, () => {
          expect(reason, `${file}:${block.line}: <!-- not-run: --> needs a reason`).not.toBe('')
        })
      } else {
        it(name, async () => {
          const outcome = await session.run(block)
          if (!outcome.ok) expect.fail(outcome.message!)
        }, BLOCK_TIMEOUT + 5_000)
      }
    }
  })
}
