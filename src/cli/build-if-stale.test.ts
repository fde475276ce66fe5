import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

/** Issue 18 item 5: `npm start` builds only when a source is newer than the last build. */

const SCRIPT = resolve(import.meta.dirname, '../../scripts/build-if-stale.mjs')
const run = promisify(execFile)
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'build-if-stale-'))
  await mkdir(join(dir, 'src'), { recursive: true })
  await mkdir(join(dir, 'dist/src'), { recursive: true })
  // A stand-in build that only leaves a mark, so the test sees whether it ran.
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { build: "node -e \"require('fs').writeFileSync('built', '1')\"" } }))
  await writeFile(join(dir, 'src/a.ts'), 'export {}\n')
  await writeFile(join(dir, 'dist/src/main.js'), '')
  await writeFile(join(dir, 'dist/.build-stamp'), '')
  const past = new Date(Date.now() - 60_000)
  for (const file of ['package.json', 'src/a.ts', 'src', 'dist/src/main.js']) await utimes(join(dir, file), past, past)
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const prestart = () => run(process.execPath, [SCRIPT], { cwd: dir })

describe('scripts/build-if-stale.mjs (npm start\'s prestart)', { timeout: 30_000 }, () => {
  it('does not build when dist/ is newer than every source', async () => {
    const { stderr } = await prestart()
    expect(stderr).toContain('dist/ is current; not rebuilding')
    expect(existsSync(join(dir, 'built'))).toBe(false)
  })

  it('builds when a source changed after the last build', async () => {
    const future = new Date(Date.now() + 60_000)
    await utimes(join(dir, 'src/a.ts'), future, future)
    await prestart()
    expect(existsSync(join(dir, 'built'))).toBe(true)
  })

  it('builds when there was no build yet', async () => {
    await rm(join(dir, 'dist/.build-stamp'))
    await prestart()
    expect(existsSync(join(dir, 'built'))).toBe(true)
  })
})
