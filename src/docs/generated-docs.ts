import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Command } from 'commander'
import { ERROR_CATALOG } from '../domain/errors.js'
import { renderCatalogDocs } from '../domain/catalog-docs.js'
import { shippedRules } from '../../conformance/coverage.js'
import { loadScenarios } from '../../conformance/loader.js'

/** One generated region of a docs page: the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export interface GeneratedBlock {
  file: string
  name: string
  render(root: string): Promise<string>
}

/**
 * Every generated part of the manual (`npm run docs:generate`; a test fails when one is stale):
 * the tool catalog, the error codes, each command's options, and the rule catalog the kit checks.
 */
export const GENERATED: GeneratedBlock[] = [
  { file: 'docs/tools.md', name: 'catalog', render: async () => renderCatalogDocs() },
  { file: 'docs/errors.md', name: 'error-codes', render: async () => renderErrorCodes() },
  { file: 'docs/configuration.md', name: 'cli-help', render: async () => renderHelp() },
  { file: 'docs/rules.md', name: 'rules', render: async (root) => renderRules(root) },
]

/** `text` with the block between the markers replaced. */
export function replaceBlock(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from) throw new Error(`no ${start} … ${end} block`)
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`
}

function renderErrorCodes(): string {
  const rows = Object.entries(ERROR_CATALOG).sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
  return ['| status | code | message (`{…}` is filled in per answer) |', '|---|---|---|',
    ...rows.map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message.replace(/\|/g, '\\|')} |`)].join('\n')
}

async function renderHelp(): Promise<string> {
  // Defaults must not depend on the environment the generator runs in; the environment is given back
  // afterwards (the test runs share a worker, and their own SANDBOX_ settings must outlive this).
  // Imported first: a module that reads a SANDBOX_ setting at load (SANDBOX_FREEZE_ROWS) must see it.
  const { buildProgram } = await import('../cli/program.js')
  const saved = Object.entries(process.env).filter(([name]) => name.startsWith('SANDBOX_'))
  for (const [name] of saved) delete process.env[name]
  let program: Command
  try {
    program = buildProgram()
  } finally {
    for (const [name, value] of saved) process.env[name] = value
  }
  const out: string[] = []
  const visit = (command: Command, path: string) => {
    command.configureHelp({ helpWidth: 100 })
    out.push(`### \`${path}\``, '', '```text', command.helpInformation().trimEnd(), '```', '')
    for (const sub of command.commands) visit(sub, `${path} ${sub.name()}`)
  }
  for (const command of program.commands) visit(command, `adops-sandbox ${command.name()}`)
  return out.join('\n').trimEnd()
}

async function renderRules(root: string): Promise<string> {
  const scenarios = await loadScenarios([join(root, 'scenarios')])
  const byRule = new Map<string, string[]>()
  for (const s of scenarios) for (const id of s.covers) byRule.set(id, [...(byRule.get(id) ?? []), s.id])
  const areas = new Map<string, Array<{ id: string; text: string }>>()
  for (const rule of shippedRules()) {
    const area = rule.id.split('-')[0]
    areas.set(area, [...(areas.get(area) ?? []), rule])
  }
  const out: string[] = ['**Contents**', '', ...[...areas.keys()].map((area) => `- [${area}](#${area.toLowerCase()})`), '']
  for (const [area, rules] of areas) {
    out.push(`## ${area}`, '', '| id | rule | scenarios |', '|---|---|---|')
    for (const r of rules) {
      const names = (byRule.get(r.id) ?? []).sort()
      out.push(`| ${r.id} | ${r.text.replace(/\|/g, '\\|')} | ${names.length ? names.map((n) => `\`${n}\``).join(', ') : '—'} |`)
    }
    out.push('')
  }
  return out.join('\n').trimEnd()
}

/** The current text of a docs file. */
export function readDoc(root: string, file: string): Promise<string> {
  return readFile(join(root, file), 'utf8')
}
