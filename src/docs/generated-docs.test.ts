import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GENERATED, readDoc, replaceBlock } from './generated-docs.js'

const ROOT = resolve(import.meta.dirname, '../..')

describe('generated parts of the manual', { timeout: 60_000 }, () => {
  it.each(GENERATED.map((b) => [`${b.file} (${b.name})`, b] as const))('%s is current (run `npm run docs:generate` when this fails)', async (_name, block) => {
    const text = await readDoc(ROOT, block.file)
    expect(replaceBlock(text, block.name, await block.render(ROOT))).toBe(text)
  })

  it('replaces only the marked block and refuses a page without markers', () => {
    const text = 'a\n<!-- x:start -->\nold\n<!-- x:end -->\nb'
    expect(replaceBlock(text, 'x', 'new')).toBe('a\n<!-- x:start -->\nnew\n<!-- x:end -->\nb')
    expect(() => replaceBlock('no markers', 'x', 'new')).toThrow(/x:start/)
  })
})
