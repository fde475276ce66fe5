import { spawn } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CodeBlock } from './code-blocks.js'
import { assignedNames, pointAt } from './code-blocks.js'

/** Where a page's blocks run: a scratch folder that sees the repository's scenarios and fixtures. */
export interface PageRun {
  dir: string
  urls: { base: string; api: string }
  /** Variables earlier blocks of the page assigned (a sourced file). */
  stateFile: string
  root: string
}

/** What the blocks of every page can reach from their working folder (read only by convention). */
const LINKED = ['scenarios', 'fixtures', 'conformance', 'rehearsals', 'src', 'node_modules', 'package.json', 'docs']

export async function preparePage(root: string, dir: string, urls: PageRun['urls']): Promise<PageRun> {
  await mkdir(join(dir, 'bin'), { recursive: true })
  for (const name of LINKED) await symlink(join(root, name), join(dir, name))
  // `adops-sandbox …` in a block runs this repository's CLI from source.
  await writeFile(join(dir, 'bin/adops-sandbox'), `#!/bin/sh\nexec "${join(root, 'node_modules/.bin/tsx')}" "${join(root, 'src/main.ts')}" "$@"\n`, { mode: 0o755 })
  const stateFile = join(dir, '.block-vars')
  await writeFile(stateFile, '')
  return { dir, urls, stateFile, root }
}

export interface BlockResult {
  code: number
  output: string
}

/**
 * Runs one block in the page's folder: a shell block under `bash -eo pipefail` after the variables
 * earlier blocks set, saving the ones it sets; a TypeScript block with tsx, `'adops-sandbox'`
 * imports pointed at this repository's source. Never throws: the result says how it went.
 */
export async function runBlock(block: CodeBlock, page: PageRun, timeoutMs = 110_000): Promise<BlockResult> {
  const code = pointAt(block.code, page.urls)
  const env = {
    ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '', PATH: `${join(page.dir, 'bin')}:${process.env.PATH}`,
    SANDBOX_BASE_URL: page.urls.base, SANDBOX_API_URL: page.urls.api,
  }
  const file = join(page.dir, `block-${block.line}.${block.kind}`)
  let command: string
  let args: string[]
  if (block.kind === 'sh') {
    const save = assignedNames(code).map((n) => `printf '%s=%q\\n' ${n} "\${${n}-}" >> '${page.stateFile}'`).join('\n')
    await writeFile(file, `set -eo pipefail\nsource '${page.stateFile}'\n${code}\n${save}\n`)
    ;[command, args] = ['bash', [file]]
  } else {
    const source = code
      .replace(/from 'adops-sandbox\/conformance'/g, `from '${join(page.root, 'conformance/index.ts')}'`)
      .replace(/from 'adops-sandbox'/g, `from '${join(page.root, 'src/index.ts')}'`)
    await writeFile(file.replace(/\.ts$/, '.mts'), source)
    ;[command, args] = [join(page.root, 'node_modules/.bin/tsx'), [file.replace(/\.ts$/, '.mts')]]
  }
  return runInGroup(command, args, { cwd: page.dir, env, timeoutMs })
}

/**
 * Runs a command in a process group of its own and, when it ends (or times out), ends the whole
 * group: a block that starts something in the background (`serve &`) leaves nothing running.
 */
function runInGroup(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<BlockResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child.pid)
    }, options.timeoutMs)
    // A background child holds the output pipes open: end the group as soon as the block's shell exits.
    child.on('exit', () => killGroup(child.pid))
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0 && !timedOut) return resolve({ code: 0, output })
      const why = timedOut ? `timed out after ${options.timeoutMs / 1000} s` : `exit ${code ?? signal}`
      resolve({ code: code && code > 0 ? code : 124, output: `${why}\n${output}` })
    })
  })
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // The group is already gone.
  }
}
