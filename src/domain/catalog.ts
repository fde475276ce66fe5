import type { Operation } from './model.js'
import { GOOGLE_READ_SCRIPTS } from './catalog-google-reads.js'
import { GOOGLE_WRITE_SCRIPTS } from './catalog-google-writes.js'
import { OTHER_ENTRIES } from './catalog-other.js'

export type FlagType = 'string' | 'integer' | 'number' | 'date' | 'url' | 'list' | 'boolean'

/** One CLI-style flag of a script, e.g. `--daily-budget <number>` (DISP-05..08). */
export interface FlagSpec {
  /** With dashes: `--campaign-id`. */
  name: string
  type: FlagType
  required: boolean
  repeatable: boolean
  /** Allowed values, matched case-insensitively and normalised to the spelling here. */
  choices?: readonly string[]
  /** Numbers: min/max value; strings: max_length; repeatable flags: min_count/max_count. */
  bounds?: { min?: number; max?: number; max_length?: number; min_count?: number; max_count?: number }
  description: string
}

/** A tool catalog entry (DESIGN "Catalog entry"); `executable: false` names reachable only elsewhere. */
export interface CatalogEntry {
  name: string
  title: string
  description: string
  kind: 'read' | 'write'
  operation: Operation
  required_scope: string
  credit_cost: number
  /** Needs `platform` (in the body, or a `--platform` flag where the script declares one). */
  platform_routed: boolean
  executable: boolean
  flags: readonly FlagSpec[]
  aliases: readonly string[]
  /** The MCP tool that runs this script, or the MCP tool name this entry is. */
  mcp_tool: string | null
  /** Non-executable entries: the script or endpoint to use instead (the UNKNOWN_SCRIPT hint). */
  use_instead?: string
  /**
   * Writes: what the operation acts on (`campaign`, `keyword`…). Entries with the same operation
   * and resource perform the same write, so a block of one blocks all (`blockTargetOf`, GATE-02);
   * left out, the entry is its own resource.
   */
  resource?: string
  /** `false` for a write the safety gate never decides (staging data); `block_tools` refuses to name it. */
  gated?: boolean
}

/** Every catalog entry, dispatchable scripts first, in a stable order. */
export const CATALOG: readonly CatalogEntry[] = [...GOOGLE_READ_SCRIPTS, ...GOOGLE_WRITE_SCRIPTS, ...OTHER_ENTRIES]

const BY_NAME = new Map<string, CatalogEntry>()
for (const entry of CATALOG) {
  BY_NAME.set(entry.name, entry)
  for (const alias of entry.aliases) BY_NAME.set(alias, entry)
}

// The catalog is static: the lower-cased text a search matches is built once, not per request.
const SEARCH_TEXT = new Map(CATALOG.map((e) => [e, [e.name, ...e.aliases, e.title, e.description, e.mcp_tool ?? ''].join(' ').toLowerCase()]))

/** The entry a name (canonical or alias, DISP-04) refers to, executable or not. */
export function findEntry(name: string): CatalogEntry | undefined {
  return BY_NAME.get(name)
}

/** Canonical names of scripts the dispatcher runs, sorted (DISP-02). */
export function dispatchableNames(): string[] {
  return CATALOG.filter((e) => e.executable).map((e) => e.name).sort()
}

export interface CatalogPage {
  tools: CatalogEntry[]
  total: number
  page: number
  limit: number
  has_more: boolean
  source: 'catalog'
}

/** The searchable, paginated catalog (DISP-03): `q` matches name, alias, title, description. */
export function searchCatalog(query: { q?: string; page: number; limit: number }): CatalogPage {
  const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  const matches = CATALOG.filter((e) => words.every((w) => (SEARCH_TEXT.get(e) as string).includes(w)))
  const start = (query.page - 1) * query.limit
  return {
    tools: matches.slice(start, start + query.limit),
    total: matches.length,
    page: query.page,
    limit: query.limit,
    has_more: start + query.limit < matches.length,
    source: 'catalog',
  }
}

/** Launches need a payment method on file (ERR-02): enabling and creating. */
export function isLaunch(entry: CatalogEntry): boolean {
  return entry.operation === 'enable' || entry.operation === 'create'
}
