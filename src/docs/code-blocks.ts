import { Lexer } from 'marked'
import type { Tokens } from 'marked'

/** A fenced block of a Markdown page that the docs test runs (or counts as not run). */
export interface CodeBlock {
  file: string
  /** 1-based line of the opening fence. */
  line: number
  kind: 'sh' | 'ts'
  code: string
  /** Set when the block is marked `<!-- not-run: <reason> -->`; `''` when the reason is missing. */
  notRun?: string
}

const KINDS: Record<string, CodeBlock['kind']> = { sh: 'sh', bash: 'sh', shell: 'sh', ts: 'ts', typescript: 'ts' }
const NOT_RUN = /^<!--\s*not-run:?\s*(.*?)\s*-->\s*$/s

/**
 * The shell and TypeScript blocks of a page in order, with their line numbers and whether an
 * HTML comment `<!-- not-run: reason -->` right before the fence marks them as not runnable.
 */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const out: CodeBlock[] = []
  let offset = 0
  let previous: { type: string; raw: string } | null = null
  for (const token of Lexer.lex(markdown)) {
    const at = markdown.indexOf(token.raw, offset)
    if (at >= 0) offset = at + token.raw.length
    if (token.type === 'code') {
      const code = token as Tokens.Code
      const kind = KINDS[(code.lang ?? '').split(/\s/)[0]]
      if (kind) {
        const marker = previous?.type === 'html' ? NOT_RUN.exec(previous.raw.trim()) : null
        const line = markdown.slice(0, Math.max(at, 0)).split('\n').length
        out.push({ file, line, kind, code: code.text, ...(marker ? { notRun: marker[1] } : {}) })
      }
    }
    if (token.type !== 'space') previous = token
  }
  return out
}

/** Block text with the documented default URLs pointed at the sandbox under test. */
export function pointAt(code: string, urls: { base: string; api: string }): string {
  const host = (url: string) => url.replace(/^https?:\/\//, '')
  return code
    .replace(/https?:\/\/(?:localhost|127\.0\.0\.1):4010/g, urls.base)
    .replace(/https?:\/\/(?:localhost|127\.0\.0\.1):4011/g, urls.api)
    .replace(/\b(?:localhost|127\.0\.0\.1):4010\b/g, host(urls.base))
    .replace(/\b(?:localhost|127\.0\.0\.1):4011\b/g, host(urls.api))
    .replace(/\bnpx adops-sandbox\b/g, 'adops-sandbox')
}

/** Shell variables a block assigns (`NAME=…`, `export NAME=…`), to carry into the page's later blocks. */
export function assignedNames(code: string): string[] {
  const names = [...code.matchAll(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1])
  return [...new Set(names)]
}
