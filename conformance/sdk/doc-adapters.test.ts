import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runScenarios } from '../runner.js'
import { makeTarget } from '../targets.js'
import { firstFailure } from '../reporters/format.js'
import { SdkAdapter } from './adapter-process.js'
import { withSdk } from './sdk-target.js'

const DOCS = ['docs/guide-sdk.md', 'docs/conformance.md']
const STAND_IN = resolve('conformance/sdk/stand-in')

/** Every Python adapter example in the docs: fenced blocks that start with a python3 shebang and read stdin. */
function pythonAdapters(): Array<{ doc: string; line: number; code: string }> {
  return DOCS.flatMap((doc) => {
    let text: string
    try {
      text = readFileSync(doc, 'utf8')
    } catch {
      return []
    }
    return [...text.matchAll(/^```python\n(#!\/usr\/bin\/env python3\n[\s\S]*?)^```$/gm)]
      .filter((m) => m[1].includes('sys.stdin'))
      .map((m) => ({ doc, line: text.slice(0, m.index).split('\n').length + 1, code: m[1] }))
  })
}

const python = (() => {
  try {
    return execFileSync('python3', ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
})()
// Like the browser tests: a missing python3 fails under CI=true instead of skipping unnoticed.
if (!python && /^(1|true)$/i.test(process.env.CI ?? '')) throw new Error('CI=true and no python3 on PATH: the docs\' adapter examples cannot be run')

describe.skipIf(!python)('the adapter examples in the docs, against a stand-in SDK', () => {
  const adapters = pythonAdapters()

  it('finds the SDK guide\'s Python adapter', () => {
    expect(adapters.map((a) => a.doc)).toContain('docs/guide-sdk.md')
  })

  it.each(adapters.map((a) => [`${a.doc}:${a.line}`, a] as const))('%s passes every sdk scenario (slow ones left out), none skipped', async (_where, example) => {
    const dir = await mkdtemp(join(tmpdir(), 'doc-adapter-'))
    const file = join(dir, 'adapter.py')
    await writeFile(file, example.code)
    const adapter = await SdkAdapter.start(`PYTHONPATH=${STAND_IN} python3 ${file}`)
    try {
      const run = await runScenarios({
        paths: ['scenarios/sdk'], tags: ['sdk', '~slow'], contract: 'off', baseline: null,
        target: withSdk(makeTarget(), adapter),
      })
      const problems = run.scenarios.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${firstFailure(r.steps)?.label ?? ''} ${r.reason}`)
      expect(problems, problems.join('\n')).toEqual([])
      expect(run.sdk).toBe('synter-python@0.0.1-standin')
      // The stand-in has no code for a timeout, so the adapter answered `"code": null`, promptly.
      const timeout = run.scenarios.find((r) => r.id === 'sdk.timeout')!
      expect(timeout.steps.flatMap((s) => s.notes).join('\n')).toMatch(/error timeout: request timeout/)
    } finally {
      await adapter.close()
    }
  }, 180_000)
})
