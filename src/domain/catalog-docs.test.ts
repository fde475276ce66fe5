import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CATALOG } from './catalog.js'
import { CATALOG_END, CATALOG_START, renderCatalogDocs, replaceCatalogBlock } from './catalog-docs.js'

const README = new URL('../../README.md', import.meta.url)

describe('README catalog', () => {
  it('is generated from the catalog itself (run `npm run docs:catalog` when this fails)', () => {
    const readme = readFileSync(README, 'utf8')
    expect(replaceCatalogBlock(readme)).toBe(readme)
  })

  it('names every catalog entry once', () => {
    const docs = renderCatalogDocs()
    for (const entry of CATALOG) expect(docs.split('\n').filter((l) => l.startsWith(`| \`${entry.name}\` |`)), entry.name).toHaveLength(1)
  })

  it('replaces only the marked block and refuses a README without markers', () => {
    const text = `a\n${CATALOG_START}\nold\n${CATALOG_END}\nb`
    expect(replaceCatalogBlock(text, 'new')).toBe(`a\n${CATALOG_START}\nnew\n${CATALOG_END}\nb`)
    expect(() => replaceCatalogBlock('no markers')).toThrow(/catalog:start/)
  })
})
