import { readFileSync } from 'node:fs'
import { createSandbox, type RunningSandbox } from '../create-sandbox.js'
import { extractBlocks, firstCommand, type DocBlock } from './extract-blocks.js'
import { PageRunner, type BlockResult } from './page-runner.js'

export interface BlockOutcome {
  ok: boolean
  /** Why the block failed (names file:line, exit code and output), or `null`. */
  message: string | null
}

/** The vitest name of a block: `<file>:<line> <first command>`. */
export function blockName(file: string, block: DocBlock): string {
  return `${file}:${block.line} ${firstCommand(block.code)}`
}

export function describeFailure(file: string, block: DocBlock, result: BlockResult, timeoutMs: number): string | null {
  if (!result.timedOut && result.exitCode === 0) return null
  const why = result.timedOut ? `timed out after ${timeoutMs} ms` : `exited with code ${result.exitCode}`
  const output = result.output.trim() || '(no output)'
  return `${file}:${block.line} (${block.kind} block) ${why}\n--- block ---\n${block.code}\n--- output ---\n${output.slice(-4000)}`
}

/**
 * One Markdown page under test: its blocks, a fresh in-process sandbox (default world, memory
 * state, ephemeral ports, its admin token in `.sandbox/state.admin-token` as serve writes it)
 * started on `open()`, and a runner that keeps shell variables across blocks.
 */
export class PageSession {
  readonly blocks: DocBlock[]
  private sandbox: RunningSandbox | null = null
  private runner: PageRunner | null = null

  constructor(
    readonly file: string,
    markdownPath: string,
    private readonly repoRoot: string,
    readonly timeoutMs = 110_000,
  ) {
    this.blocks = extractBlocks(readFileSync(markdownPath, 'utf8'))
  }

  get runnable(): DocBlock[] {
    return this.blocks.filter((b) => b.notRun === null)
  }

  get notRun(): DocBlock[] {
    return this.blocks.filter((b) => b.notRun !== null)
  }

  async open(): Promise<void> {
    if (this.runnable.length === 0) return
    this.sandbox = await createSandbox()
    const { baseUrl, apiUrl, adminToken } = this.sandbox
    this.runner = new PageRunner({ repoRoot: this.repoRoot, baseUrl, apiUrl, adminToken, timeoutMs: this.timeoutMs })
  }

  get urls(): { baseUrl: string; apiUrl: string } | null {
    return this.sandbox ? { baseUrl: this.sandbox.baseUrl, apiUrl: this.sandbox.apiUrl } : null
  }

  async run(block: DocBlock): Promise<BlockOutcome> {
    if (!this.runner) throw new Error(`${this.file}: open() the page before running its blocks`)
    const result = await this.runner.run(block)
    const message = describeFailure(this.file, block, result, this.timeoutMs)
    return { ok: message === null, message }
  }

  summary(): string {
    const reasons = this.notRun.map((b) => `\n  ${this.file}:${b.line} not-run: ${b.notRun || '(NO REASON)'}`).join('')
    return `${this.file}: ${this.runnable.length} run, ${this.notRun.length} not-run${reasons}`
  }

  async close(): Promise<void> {
    this.runner?.close()
    await this.sandbox?.close()
    this.runner = null
    this.sandbox = null
  }
}
