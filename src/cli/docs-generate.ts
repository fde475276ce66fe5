import { writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GENERATED, readDoc, replaceBlock } from '../docs/generated-docs.js'

/** `npm run docs:generate`: rewrites every generated block of the manual (docs/*.md). */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
for (const block of GENERATED) {
  const text = await readDoc(root, block.file)
  const next = replaceBlock(text, block.name, await block.render(root))
  if (next === text) console.log(`${block.file} (${block.name}) is up to date`)
  else {
    await writeFile(resolve(root, block.file), next)
    console.log(`${block.file} (${block.name}) updated`)
  }
}
