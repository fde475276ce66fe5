import type { CatalogEntry, FlagSpec } from './catalog.js'
import { CATALOG } from './catalog.js'

/** The catalog tables of docs/tools.md, generated from `CATALOG` (`npm run docs:generate`). */
export function renderCatalogDocs(catalog: readonly CatalogEntry[] = CATALOG): string {
  const scripts = catalog.filter((e) => e.executable)
  const others = catalog.filter((e) => !e.executable)
  return [
    '| script | kind / operation | scope | credits | platform | flags | aliases, MCP tool |',
    '|---|---|---|---|---|---|---|',
    ...scripts.map((e) => row([
      `\`${e.name}\``, `${e.kind} / ${e.operation}`, `\`${e.required_scope}\``, String(e.credit_cost), e.platform_routed ? 'required' : '—',
      e.flags.length ? e.flags.map(flagText).join('<br>') : 'none',
      [...e.aliases.map((a) => `alias \`${a}\``), e.mcp_tool ? `MCP \`${e.mcp_tool}\`` : ''].filter(Boolean).join(', ') || '—',
    ])),
    '',
    'Catalog entries that are **not** dispatchable (`executable: false`; dispatching one is 400 `UNKNOWN_SCRIPT` with a `hint`):',
    '',
    '| name | what it is | use instead |',
    '|---|---|---|',
    ...others.map((e) => row([`\`${e.name}\``, e.description, `\`${e.use_instead ?? ''}\``])),
  ].join('\n')
}

function flagText(f: FlagSpec): string {
  const value = f.type === 'boolean' ? '' : ` <${f.choices ? f.choices.join('\\|') : f.type}>`
  const notes = [
    f.required ? 'required' : '',
    f.repeatable ? 'repeatable' : '',
    f.bounds?.min !== undefined || f.bounds?.max !== undefined ? `${f.bounds.min ?? ''}..${f.bounds.max ?? ''}` : '',
    f.bounds?.max_length !== undefined ? `≤${f.bounds.max_length} chars` : '',
    f.bounds?.min_count !== undefined || f.bounds?.max_count !== undefined ? `${f.bounds.min_count ?? 0}-${f.bounds.max_count ?? '∞'} values` : '',
  ].filter(Boolean)
  return `\`${f.name}${value}\`${notes.length ? ` (${notes.join(', ')})` : ''}`
}

function row(cells: string[]): string {
  return `| ${cells.map((c) => c.replace(/(?<!\\)\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`
}
