import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { headingsOf, linksOf, tocOf } from './markdown.js'

/** Issue 18: every page of the manual has a table of contents, and no link points nowhere. */

const ROOT = resolve(import.meta.dirname, '../..')
const PAGES = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8')

describe.each(PAGES.filter((p) => p.startsWith('docs/')))('%s', (page) => {
  it('opens with a table of contents that lists its sections in order', () => {
    const sections = headingsOf(read(page)).filter((h) => h.depth === 2).map((h) => h.anchor)
    expect(tocOf(read(page))).toEqual(sections)
  })
})

describe.each(PAGES)('links in %s', (page) => {
  it('point at files and anchors that exist', () => {
    const broken: string[] = []
    for (const href of linksOf(read(page))) {
      if (/^[a-z]+:/i.test(href)) continue
      const [path, anchor] = href.split('#')
      const target = path ? join(dirname(join(ROOT, page)), decodeURI(path)) : join(ROOT, page)
      if (!existsSync(target)) broken.push(`${href}: no such file`)
      else if (anchor && target.endsWith('.md') && !headingsOf(readFileSync(target, 'utf8')).some((h) => h.anchor === anchor)) broken.push(`${href}: no such heading`)
    }
    expect(broken).toEqual([])
  })

  it('refer to nothing outside the repository', () => {
    expect(read(page)).not.toMatch(/\.\.\/shared\//)
  })
})
