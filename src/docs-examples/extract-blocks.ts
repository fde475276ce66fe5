import { marked, type Token } from 'marked'

/** Fence languages the docs test executes. */
export const SHELL_LANGS = new Set(['sh', 'bash', 'shell'])
export const TS_LANGS = new Set(['ts', 'typescript'])

export interface DocBlock {
  /** 1-based line of the opening fence. */
  line: number
  kind: 'shell' | 'ts'
  code: string
  /** `null` when the block runs; the reason (possibly empty) when marked `<!-- not-run: … -->`. */
  notRun: string | null
}

const NOT_RUN = /^<!--\s*not-run:(.*?)-->\s*$/

function* codeTokens(tokens: Token[]): Generator<Token & { type: 'code' }> {
  for (const token of tokens) {
    if (token.type === 'code') yield token as Token & { type: 'code' }
    const nested = (token as { tokens?: Token[] }).tokens
    if (nested) yield* codeTokens(nested)
    const items = (token as { items?: Token[] }).items
    if (items) yield* codeTokens(items)
  }
}

/**
 * The fenced shell and TypeScript blocks of a Markdown page, in page order, with the line of their
 * opening fence (found with the `marked` lexer) and their not-run marker if the previous non-blank
 * line is `<!-- not-run: <reason> -->`.
 */
export function extractBlocks(markdown: string): DocBlock[] {
  const lines = markdown.split('\n')
  const blocks: DocBlock[] = []
  let cursor = 0
  for (const token of codeTokens(marked.lexer(markdown))) {
    const raw = token.raw.replace(/\n+$/, '')
    if (!/^\s*(```|~~~)/.test(raw)) continue // indented code: never executed
    const lang = (token.lang ?? '').trim().split(/\s+/)[0]!.toLowerCase()
    const kind = SHELL_LANGS.has(lang) ? 'shell' : TS_LANGS.has(lang) ? 'ts' : null
    // Locate the fence: the raw text, else (nested, de-indented) its first line.
    let at = markdown.indexOf(raw, cursor)
    if (at < 0) at = markdown.indexOf(raw.split('\n')[0]!.trim(), cursor)
    if (at < 0) continue
    cursor = at + 1
    if (!kind) continue
    const line = markdown.slice(0, at).split('\n').length
    let previous = line - 2
    while (previous >= 0 && lines[previous]!.trim() === '') previous -= 1
    const marker = previous >= 0 ? NOT_RUN.exec(lines[previous]!.trim()) : null
    blocks.push({ line, kind, code: token.text, notRun: marker ? marker[1]!.trim() : null })
  }
  return blocks
}

/** The first command of a block, for the test name. */
export function firstCommand(code: string): string {
  const first = code.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#') && !l.trim().startsWith('//'))
  const text = (first ?? '').trim()
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
