import { describe, expect, it } from 'vitest'
import { CATALOG } from './catalog.js'
import { renderCatalogDocs } from './catalog-docs.js'

describe('the catalog tables of docs/tools.md', () => {
  it('name every catalog entry once', () => {
    const docs = renderCatalogDocs()
    for (const entry of CATALOG) expect(docs.split('\n').filter((l) => l.startsWith(`| \`${entry.name}\` |`)), entry.name).toHaveLength(1)
  })
})
