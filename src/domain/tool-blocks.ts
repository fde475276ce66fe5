import type { CatalogEntry } from './catalog.js'
import { closest } from '../support/did-you-mean.js'
import { SandboxError } from './errors.js'

/**
 * What a block resolves from a catalog entry: its names and what it does. A loaded catalog
 * snapshot's entries are blockable the same way as long as they carry these fields.
 */
export type BlockableEntry = Pick<CatalogEntry, 'name' | 'aliases' | 'mcp_tool' | 'operation' | 'kind' | 'resource' | 'gated'>

/** The operation on a resource a write performs, e.g. `pause` on `campaign` (sandbox decision, GATE-02). */
export interface BlockTarget {
  operation: string
  resource: string
}

/** What a `block_tools` list blocks: each target, with the policy entry that named it first. */
export interface BlockResolution {
  blocked: ReadonlyMap<string, { entry: string; target: BlockTarget }>
  /** Policy entries that name no gated write of the catalog, and why. */
  problems: Array<{ entry: string; reason: string }>
}

/**
 * The operation on a resource an entry performs (sandbox decision, GATE-02): `operation` from the
 * catalog, `resource` from the entry or, when it names none, the entry itself (its canonical name),
 * so an entry that declares no resource is blocked under its own names only.
 */
export function blockTargetOf(entry: Pick<BlockableEntry, 'name' | 'operation' | 'resource'>): BlockTarget {
  return { operation: entry.operation, resource: entry.resource ?? entry.name }
}

/** The key two entries that perform the same write share. */
export function blockKeyOf(target: BlockTarget): string {
  return `${target.operation} ${target.resource}`
}

/** Every name an entry answers to: canonical name, script aliases and its MCP tool name. */
export function namesOf(entry: Pick<BlockableEntry, 'name' | 'aliases' | 'mcp_tool'>): string[] {
  return [entry.name, ...entry.aliases, ...(entry.mcp_tool ? [entry.mcp_tool] : [])]
}

/** How a `block_tools` entry is compared: case, surrounding space, `-` and spaces do not matter. */
export function normaliseToolName(name: string): string {
  return name.trim().toLowerCase().replace(/[-\s]+/g, '_')
}

/** Whether the gate decides this entry: writes, unless the catalog marks one as not gated (`gated: false`). */
export function isGated(entry: Pick<BlockableEntry, 'kind' | 'gated'>): boolean {
  return entry.kind === 'write' && entry.gated !== false
}

// The name index of a catalog, built once per catalog array (catalogs are immutable values).
const indexes = new WeakMap<readonly BlockableEntry[], Map<string, BlockableEntry[]>>()

function indexOf(catalog: readonly BlockableEntry[]): Map<string, BlockableEntry[]> {
  let index = indexes.get(catalog)
  if (index) return index
  index = new Map()
  for (const entry of catalog) {
    for (const name of new Set(namesOf(entry).map(normaliseToolName))) index.set(name, [...(index.get(name) ?? []), entry])
  }
  indexes.set(catalog, index)
  return index
}

/**
 * Resolves a policy's `block_tools` through a catalog (sandbox decision, GATE-02): each entry, by
 * any name (canonical, alias, MCP tool name; see `normaliseToolName`), blocks the operation on a
 * resource of every gated write that bears that name, and so every other name, alias, MCP tool and
 * REST route performing it. Entries naming nothing gated are reported in `problems`.
 */
export function resolveBlockTools(blockTools: readonly string[], catalog: readonly BlockableEntry[]): BlockResolution {
  const index = indexOf(catalog)
  const blocked = new Map<string, { entry: string; target: BlockTarget }>()
  const problems: BlockResolution['problems'] = []
  for (const entry of blockTools) {
    const found = index.get(normaliseToolName(entry)) ?? []
    const writes = found.filter(isGated)
    for (const target of writes.map(blockTargetOf)) if (!blocked.has(blockKeyOf(target))) blocked.set(blockKeyOf(target), { entry, target })
    if (writes.length > 0) continue
    const reason = found.length === 0 ? 'names nothing in the catalog'
      : found.some((e) => e.kind === 'write') ? 'is not a gated write (the safety gate never decides it; block the write that uses what it makes)' : 'is a read; block_tools blocks writes only'
    problems.push({ entry, reason })
  }
  return { blocked, problems }
}

/** The policy entry that blocks `entry`, with what it blocks, or null (sandbox decision, GATE-02). */
export function blockingEntry(blockTools: readonly string[], entry: Pick<BlockableEntry, 'name' | 'operation' | 'resource'>, catalog: readonly BlockableEntry[]): { entry: string; target: BlockTarget } | null {
  if (blockTools.length === 0) return null
  return resolvedFor(blockTools, catalog).blocked.get(blockKeyOf(blockTargetOf(entry))) ?? null
}

// Policy rows are replaced, never mutated: a policy's list is resolved once per catalog, not per write.
const resolutions = new WeakMap<readonly string[], { catalog: readonly BlockableEntry[]; resolution: BlockResolution }>()

function resolvedFor(blockTools: readonly string[], catalog: readonly BlockableEntry[]): BlockResolution {
  const cached = resolutions.get(blockTools)
  if (cached?.catalog === catalog) return cached.resolution
  const resolution = resolveBlockTools(blockTools, catalog)
  resolutions.set(blockTools, { catalog, resolution })
  return resolution
}

/**
 * Refuses a `block_tools` list with an entry that blocks nothing (400 INVALID_REQUEST, field
 * `block_tools`), naming each such entry and the gated writes whose names are closest to it.
 */
export function checkBlockTools(blockTools: readonly string[] | undefined, catalog: readonly BlockableEntry[]): void {
  if (!blockTools || blockTools.length === 0) return
  const problems = resolveBlockTools(blockTools, catalog).problems.map((p) => ({ ...p, near: nearNames(p.entry, catalog) }))
  if (problems.length === 0) return
  const text = problems.map((p) => `\`${p.entry}\` ${p.reason}${p.near.length ? ` (near: ${p.near.join(', ')})` : ''}`).join('; ')
  throw new SandboxError('INVALID_REQUEST', {
    reason: `block_tools: ${text}. Name a write by its script name, an alias or its MCP tool name (GET /api/v1/tools lists them).`,
    field: 'block_tools', unknown: problems.map((p) => p.entry), did_you_mean: [...new Set(problems.flatMap((p) => p.near))],
  })
}

// Up to three gated-write names near `word`: names containing it (or contained in it) first, then by edit distance.
function nearNames(word: string, catalog: readonly BlockableEntry[]): string[] {
  const typed = normaliseToolName(word)
  const pool = new Set(catalog.filter(isGated).flatMap(namesOf))
  const near = [...pool].filter((n) => typed.length >= 4 && (n.includes(typed) || typed.includes(n))).sort((a, b) => a.length - b.length).slice(0, 3)
  for (const n of near) pool.delete(n)
  while (near.length < 3) {
    const best = closest(typed, pool)
    if (best === null) break
    near.push(best)
    pool.delete(best)
  }
  return near
}
