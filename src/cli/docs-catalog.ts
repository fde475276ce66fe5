import { readFile, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { replaceCatalogBlock } from '../domain/catalog-docs.js'

/** `npm run docs:catalog`: rewrites the README's catalog block from the catalog itself. */
const readme = resolve(dirname(fileURLToPath(import.meta.url)), '../../README.md')
const text = await readFile(readme, 'utf8')
const next = replaceCatalogBlock(text)
if (next === text) console.log('README catalog is up to date')
else {
  await writeFile(readme, next)
  console.log('README catalog updated')
}
