import { Lexer } from 'marked'
import type { Token, Tokens } from 'marked'

/** A heading of a Markdown page with its GitHub anchor. */
export interface Heading {
  depth: number
  text: string
  anchor: string
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not `-` or `_`), spaces → `-`. */
export function anchorOf(text: string): string {
  return text.toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-')
}

export function headingsOf(markdown: string): Heading[] {
  return Lexer.lex(markdown).filter((t): t is Tokens.Heading => t.type === 'heading')
    .map((h) => ({ depth: h.depth, text: h.text, anchor: anchorOf(h.text) }))
}

/** Every link target in a page (inline links and images), outside code. */
export function linksOf(markdown: string): string[] {
  const out: string[] = []
  const walk = (tokens: Token[] | undefined) => {
    for (const t of tokens ?? []) {
      if (t.type === 'link' || t.type === 'image') out.push((t as Tokens.Link).href)
      const nested = t as { tokens?: Token[]; items?: Array<{ tokens?: Token[] }>; rows?: Array<Array<{ tokens?: Token[] }>>; header?: Array<{ tokens?: Token[] }> }
      walk(nested.tokens)
      for (const item of nested.items ?? []) walk(item.tokens)
      for (const cell of nested.header ?? []) walk(cell.tokens)
      for (const row of nested.rows ?? []) for (const cell of row) walk(cell.tokens)
    }
  }
  walk(Lexer.lex(markdown))
  return out
}

/** The anchors listed by a page's "**Contents**" list, in order (empty when it has none). */
export function tocOf(markdown: string): string[] {
  const tokens = Lexer.lex(markdown)
  const at = tokens.findIndex((t) => t.type === 'paragraph' && t.raw.trim() === '**Contents**')
  if (at < 0) return []
  const list = tokens.slice(at + 1).find((t) => t.type === 'list') as Tokens.List | undefined
  return (list?.items ?? []).map((item) => /\]\(#([^)]+)\)/.exec(item.raw)?.[1] ?? '')
}
