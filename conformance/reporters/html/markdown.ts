import { esc } from '../format.js'

/**
 * Renders the inline markdown of a rule text (RULES.md lines: `code`, **strong**, *emphasis*,
 * [text](link)) as HTML. Links keep their text only: the report is one offline file with no
 * external URLs. Everything is escaped first, so a rule text cannot inject markup.
 */
export function inlineMarkdown(text: string): string {
  const parts = esc(text).split(/(`[^`]+`)/)
  return parts.map((part) => part.length > 1 && part.startsWith('`') && part.endsWith('`')
    ? `<code>${part.slice(1, -1)}</code>`
    : part
      .replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, '$1<em>$2</em>')
      .replace(/(^|[^\w])_([^_\s][^_]*)_(?!\w)/g, '$1<em>$2</em>')).join('')
}
