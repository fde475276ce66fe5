import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync, chmodSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { DocBlock } from './extract-blocks.js'
import { rewriteCli, rewriteImports, substituteUrls, type Urls } from './substitute.js'
import { writeAdminTokenFile } from '../support/admin-token-file.js'

export interface BlockResult {
  exitCode: number | null
  output: string
  timedOut: boolean
}

export interface PageRunnerOptions extends Urls {
  repoRoot: string
  timeoutMs?: number
  /** The page sandbox's admin token, written where `serve` would write it: `.sandbox/state.admin-token` in the working directory. */
  adminToken?: string | null
}

/**
 * Repository entries a block sees in its working directory: symlinks, so a block that writes inside
 * one of them writes into the repository. Anything else a block writes (out/, .sandbox/, …) stays in
 * the scratch directory.
 */
const LINKED = ['scenarios', 'fixtures', 'conformance', 'rehearsals', 'docs', 'src', 'bench', 'node_modules', 'package.json', 'tsconfig.json']

// Shell variables carry over: each block's bash process sources the state the previous one saved.
const SAVE_STATE = `__save() {
  { for __v in $(compgen -v); do case $__v in BASH*|FUNCNAME|PIPESTATUS|_|PPID|UID|EUID|SHELLOPTS|BASHOPTS|GROUPS|RANDOM|SRANDOM|SECONDS|LINENO|EPOCH*|HISTCMD|DIRSTACK|PWD|OLDPWD|SHLVL|COLUMNS|LINES|__*) ;; *) declare -p "$__v" ;; esac; done
    declare -f; printf 'cd %q\\n' "$PWD"; } > "$__STATE" 2>/dev/null
}
trap __save EXIT`

/**
 * Runs one Markdown page's blocks in order in a scratch working directory (a temp dir holding
 * symlinks to the repository's scenarios/, fixtures/, conformance/ and docs/), against the given
 * sandbox URLs, with `adops-sandbox` on PATH running this repository's CLI.
 */
export class PageRunner {
  readonly workDir: string
  private readonly scratch: string
  private readonly state: string
  private readonly env: NodeJS.ProcessEnv
  /** tsx's loader by absolute URL: `--import tsx` would resolve from the block's cwd. */
  private readonly tsx: string

  constructor(private readonly options: PageRunnerOptions) {
    this.tsx = pathToFileURL(path.join(options.repoRoot, 'node_modules/tsx/dist/loader.mjs')).href
    this.scratch = mkdtempSync(path.join(os.tmpdir(), 'docs-examples-'))
    this.workDir = path.join(this.scratch, 'work')
    mkdirSync(this.workDir)
    for (const name of LINKED) {
      const from = path.join(options.repoRoot, name)
      if (existsSync(from)) symlinkSync(from, path.join(this.workDir, name))
    }
    const bin = path.join(this.scratch, 'bin')
    mkdirSync(bin)
    const shim = path.join(bin, 'adops-sandbox')
    const main = path.join(options.repoRoot, 'src/main.ts')
    writeFileSync(shim, `#!/bin/sh\nexec node --import "${this.tsx}" "${main}" "$@"\n`)
    chmodSync(shim, 0o755)
    // As after `npm start` in this folder: scripts read the token serve wrote next to its state (issue 33).
    if (options.adminToken) writeAdminTokenFile(path.join(this.workDir, '.sandbox/state.admin-token'), options.adminToken)
    this.state = path.join(this.scratch, 'state.sh')
    writeFileSync(this.state, `cd '${this.workDir}'\n`)
    this.env = {
      ...process.env,
      PATH: `${bin}${path.delimiter}${path.join(options.repoRoot, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
      NODE_PATH: path.join(options.repoRoot, 'node_modules'),
      SANDBOX_BASE_URL: options.baseUrl,
      SANDBOX_API_URL: options.apiUrl,
      NO_COLOR: '1',
      __STATE: this.state,
    }
  }

  run(block: DocBlock): Promise<BlockResult> {
    const code = substituteUrls(block.code, this.options)
    if (block.kind === 'shell') {
      const script = path.join(this.scratch, `block-${block.line}.sh`)
      writeFileSync(script, `${SAVE_STATE}\nsource "$__STATE"\nset -eo pipefail\n${rewriteCli(code)}\n`)
      return this.spawn('bash', [script])
    }
    // .mts: top-level await works whatever package.json the temp dir sits under.
    const file = path.join(this.options.repoRoot, 'node_modules/.cache', `docs-example-${process.pid}-${block.line}.mts`)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, rewriteImports(code, this.options.repoRoot))
    return this.spawn('node', ['--import', this.tsx, file]).finally(() => rmSync(file, { force: true }))
  }

  private spawn(command: string, args: string[]): Promise<BlockResult> {
    const timeoutMs = this.options.timeoutMs ?? 110_000
    return new Promise((resolve) => {
      const child = spawn(command, args, { cwd: this.workDir, env: this.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      let timedOut = false
      child.stdout.on('data', (d: Buffer) => (output += d.toString()))
      child.stderr.on('data', (d: Buffer) => (output += d.toString()))
      const timer = setTimeout(() => {
        timedOut = true
        try {
          process.kill(-child.pid!, 'SIGKILL') // the whole group: a server a block started dies too
        } catch {
          /* already gone */
        }
      }, timeoutMs)
      // A block's background child (`serve &`) holds the pipes open: end the group when the shell exits.
      child.on('exit', () => {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {
          /* already gone */
        }
      })
      child.on('close', (exitCode) => {
        clearTimeout(timer)
        resolve({ exitCode, output, timedOut })
      })
    })
  }

  close(): void {
    rmSync(this.scratch, { recursive: true, force: true })
  }
}
