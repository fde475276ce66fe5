import { isDeepStrictEqual } from 'node:util'

/** A tool as `tools/list` carries it; only the fields drift compares are typed. */
export interface ListedTool {
  name: string
  title?: string
  description?: string
  inputSchema?: Record<string, unknown>
  annotations?: Record<string, unknown>
  [more: string]: unknown
}

/** One difference in one tool present on both sides. */
export interface ToolChange {
  aspect: 'schema' | 'annotation' | 'description' | 'title'
  /** What changed: a property path, an annotation key, or the field itself. */
  where: string
  sandbox: unknown
  target: unknown
}

/** How the target's catalog differs from the sandbox's (issue 35 item 5). */
export interface CatalogDrift {
  /** Tools the target lists and the sandbox does not. */
  added: string[]
  /** Tools the sandbox lists and the target does not. */
  removed: string[]
  changed: Array<{ name: string; changes: ToolChange[] }>
  sandbox_tools: number
  target_tools: number
}

/**
 * Compares two `tools/list` results tool by tool: tools added and removed; for a tool on both
 * sides, its input schema property by property (added, removed, type or other keyword changes,
 * `required`), its annotations key by key, its title and description.
 */
export function compareCatalogs(sandbox: readonly ListedTool[], target: readonly ListedTool[]): CatalogDrift {
  const mine = new Map(sandbox.map((t) => [t.name, t]))
  const theirs = new Map(target.map((t) => [t.name, t]))
  const changed: CatalogDrift['changed'] = []
  for (const tool of sandbox) {
    const other = theirs.get(tool.name)
    if (!other) continue
    const changes = [...schemaChanges(tool.inputSchema ?? {}, other.inputSchema ?? {}), ...annotationChanges(tool.annotations ?? {}, other.annotations ?? {})]
    for (const field of ['title', 'description'] as const) {
      if ((tool[field] ?? null) !== (other[field] ?? null)) changes.push({ aspect: field, where: field, sandbox: tool[field] ?? null, target: other[field] ?? null })
    }
    if (changes.length > 0) changed.push({ name: tool.name, changes })
  }
  return {
    added: target.filter((t) => !mine.has(t.name)).map((t) => t.name),
    removed: sandbox.filter((t) => !theirs.has(t.name)).map((t) => t.name),
    changed,
    sandbox_tools: sandbox.length,
    target_tools: target.length,
  }
}

/** Whether anything differs. */
export function hasCatalogDrift(drift: CatalogDrift): boolean {
  return drift.added.length + drift.removed.length + drift.changed.length > 0
}

function schemaChanges(a: Record<string, unknown>, b: Record<string, unknown>): ToolChange[] {
  const change = (where: string, sandbox: unknown, target: unknown): ToolChange => ({ aspect: 'schema', where, sandbox, target })
  const props = (s: Record<string, unknown>) => (typeof s.properties === 'object' && s.properties !== null ? s.properties as Record<string, unknown> : {})
  const pa = props(a)
  const pb = props(b)
  const out: ToolChange[] = []
  for (const name of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
    if (!(name in pb)) out.push(change(`properties.${name}`, 'present', 'absent'))
    else if (!(name in pa)) out.push(change(`properties.${name}`, 'absent', 'present'))
    else if (!isDeepStrictEqual(pa[name], pb[name])) out.push(change(`properties.${name}`, pa[name], pb[name]))
  }
  const required = (s: Record<string, unknown>) => (Array.isArray(s.required) ? [...(s.required as string[])].sort() : [])
  if (!isDeepStrictEqual(required(a), required(b))) out.push(change('required', required(a), required(b)))
  // Any other top-level keyword (additionalProperties, $defs, title…) compared whole.
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'properties' || key === 'required') continue
    if (!isDeepStrictEqual(a[key], b[key])) out.push(change(key, a[key] ?? null, b[key] ?? null))
  }
  return out
}

function annotationChanges(a: Record<string, unknown>, b: Record<string, unknown>): ToolChange[] {
  const out: ToolChange[] = []
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!isDeepStrictEqual(a[key], b[key])) out.push({ aspect: 'annotation', where: key, sandbox: a[key] ?? null, target: b[key] ?? null })
  }
  return out
}

/** The catalog drift for people: added, removed, then each changed tool's differences. */
export function renderCatalogDrift(drift: CatalogDrift, target: string): string {
  const lines = [`catalog drift: sandbox lists ${drift.sandbox_tools} tools, ${target} lists ${drift.target_tools}`]
  if (drift.added.length) lines.push(`  added on the target (${drift.added.length}): ${drift.added.join(', ')}`)
  if (drift.removed.length) lines.push(`  missing on the target (${drift.removed.length}): ${drift.removed.join(', ')}`)
  for (const { name, changes } of drift.changed) {
    lines.push(`  changed ${name}:`)
    for (const c of changes) lines.push(`    ${c.aspect} ${c.where}: sandbox ${short(c.sandbox)}, target ${short(c.target)}`)
  }
  lines.push(hasCatalogDrift(drift) ? `catalog drift: ${drift.added.length} added, ${drift.removed.length} missing, ${drift.changed.length} changed` : 'catalog drift: none')
  return `${lines.join('\n')}\n`
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
