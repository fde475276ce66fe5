import type { CatalogEntry } from './catalog.js'
import type { Operation } from './model.js'
import { SandboxError } from './errors.js'
import { isKnownScope } from './scopes.js'

/** The first problem a tool's arguments have: a dotted path and a sentence. */
export interface SchemaProblem {
  path: string
  message: string
}

/** Checks (and fills defaults into) one tool's arguments; null when they are valid. */
export type ToolValidator = (args: Record<string, unknown>) => SchemaProblem | null

/** What a catalog needs to read a tool's `inputSchema` (Ajv, `support/tool-schema.ts`; injected so the domain stays free of it). */
export type SchemaCompiler = (schema: Record<string, unknown>) => ToolValidator

export interface SnapshotOptions {
  source: string
  /** Names the sandbox answers itself: their tools keep the sandbox's behaviour. */
  modelled: (name: string) => boolean
  compile: SchemaCompiler
}

/** The effects a catalog annotates its tools with (issue 35). */
export const EFFECTS = ['read', 'write', 'publish', 'state'] as const
export type Effect = (typeof EFFECTS)[number]

/** What a simulated tool returns, chosen from its name (issue 35 item 4). */
export type Family = 'performance' | 'list' | 'get' | 'other'

/** One tool of an MCP `tools/list` result, as the snapshot file holds it. */
export interface SnapshotTool {
  name: string
  title?: string
  description?: string
  inputSchema: Record<string, unknown>
  annotations?: Record<string, unknown>
  [more: string]: unknown
}

/** How the sandbox reads one snapshot tool; shown as `snapshot` on its catalog entry. */
export interface SnapshotInfo {
  effect: Effect
  family: Family
  /** The platform the name mentions (`meta_list_campaigns` → meta), else null. */
  platform: string | null
  external_mutation: boolean
  /** The scope the catalog declares (`scope=` in the description); `required_scope` is what the sandbox checks. */
  declared_scope: string | null
  required_entitlement: string | null
  /** Always true: the sandbox has no script of this name; results are derived, never real. */
  simulated: true
}

/** A catalog entry loaded from a snapshot: an ordinary entry, plus how it was read. */
export type SnapshotEntry = CatalogEntry & { snapshot: SnapshotInfo }

/** Platform names a tool name may mention; not tied to any one service's catalog. */
const PLATFORM_WORDS = ['google', 'meta', 'facebook', 'instagram', 'linkedin', 'microsoft', 'bing', 'reddit', 'tiktok', 'x', 'twitter',
  'amazon', 'pinterest', 'snap', 'snapchat', 'spotify', 'quora', 'youtube', 'dv360', 'cm360', 'criteo', 'walmart', 'shopify']

/**
 * A loaded `tools/list` snapshot (issue 35 item 4): the tools in file order, and a catalog entry per
 * tool the sandbox does not model itself. Schemas are compiled on a tool's first call, so loading
 * 200 tools stays cheap (bench "catalog").
 */
export class SnapshotCatalog {
  readonly tools: readonly SnapshotTool[]
  readonly entries: readonly SnapshotEntry[]
  readonly source: string
  private readonly byName: Map<string, SnapshotEntry>
  private readonly toolsByName: Map<string, SnapshotTool>
  private readonly validators = new Map<string, ToolValidator>()
  private readonly compile: SchemaCompiler
  private readonly prepared = new Map<string, Readonly<Record<string, unknown>>>()

  constructor(tools: readonly SnapshotTool[], options: SnapshotOptions) {
    this.tools = tools
    this.source = options.source
    this.compile = options.compile
    this.toolsByName = new Map(tools.map((t) => [t.name, t]))
    this.entries = tools.filter((t) => !options.modelled(t.name)).map(entryOf)
    this.byName = new Map(this.entries.map((e) => [e.name, e]))
  }

  /** The simulated entry of a tool name (modelled tools have none: the sandbox's own entry answers). */
  find(name: string): SnapshotEntry | undefined {
    return this.byName.get(name)
  }

  tool(name: string): SnapshotTool | undefined {
    return this.toolsByName.get(name)
  }

  /** Validates arguments against the tool's `inputSchema` (defaults filled in); a refusal is 400 INVALID_ARGS. */
  validate(name: string, args: Record<string, unknown>): Record<string, unknown> {
    const check = this.validatorOf(name)
    const copy = structuredClone(args)
    const problem = check(copy)
    if (problem) throw new SandboxError('INVALID_ARGS', { flag: problem.path, reason: problem.message })
    return copy
  }

  /**
   * The validated arguments of a call given as dispatcher args (`decode` turns them into JSON),
   * kept per tool and args (bounded): a call repeated word for word is not decoded and checked again.
   */
  valuesOf(name: string, args: readonly string[], decode: (args: readonly string[]) => Record<string, unknown>): Readonly<Record<string, unknown>> {
    const key = `${name}\u0000${args.join('\u0000')}`
    let values = this.prepared.get(key)
    if (!values) {
      values = Object.freeze(this.validate(name, decode(args)))
      if (this.prepared.size >= 1000) this.prepared.clear()
      this.prepared.set(key, values)
    }
    return values
  }

  /** The first problem with `args`, or null: what the MCP layer turns into a JSON-RPC error. */
  problemWith(name: string, args: Record<string, unknown>): string | null {
    const problem = this.validatorOf(name)(structuredClone(args))
    return problem ? `${problem.path}: ${problem.message}` : null
  }

  private validatorOf(name: string): ToolValidator {
    let check = this.validators.get(name)
    if (!check) {
      const tool = this.toolsByName.get(name)
      if (!tool) throw new SandboxError('UNKNOWN_SCRIPT', { script_name: name })
      check = this.compile(tool.inputSchema)
      this.validators.set(name, check)
    }
    return check
  }
}

/**
 * Reads a `tools/list` result: a JSON array of tools or `{tools: […]}` (extra fields are kept out).
 * Each tool needs a unique `name` and an object `inputSchema`; anything else is a load error naming
 * the tool, so a bad snapshot fails at start-up, not on a call.
 */
export function parseSnapshot(json: unknown, options: SnapshotOptions): SnapshotCatalog {
  const list = Array.isArray(json) ? json : isObject(json) && Array.isArray(json.tools) ? json.tools : null
  if (!list) throw new Error(`${options.source}: a catalog is a tools/list result: a JSON array of tools, or an object with a "tools" array`)
  const seen = new Set<string>()
  const tools = list.map((raw, i): SnapshotTool => {
    const where = `${options.source}: tools[${i}]`
    if (!isObject(raw) || typeof raw.name !== 'string' || !/^[A-Za-z0-9_.\-/]{1,128}$/.test(raw.name)) {
      throw new Error(`${where}: each tool needs a "name" of 1-128 letters, digits, "_", "-", "." or "/"`)
    }
    if (seen.has(raw.name)) throw new Error(`${where}: duplicate tool name "${raw.name}"`)
    seen.add(raw.name)
    if (!isObject(raw.inputSchema) || (raw.inputSchema.type !== undefined && raw.inputSchema.type !== 'object')) {
      throw new Error(`${where} (${raw.name}): "inputSchema" must be a JSON Schema object with type "object"`)
    }
    if (raw.annotations !== undefined && !isObject(raw.annotations)) throw new Error(`${where} (${raw.name}): "annotations" must be an object`)
    return raw as SnapshotTool
  })
  return new SnapshotCatalog(tools, options)
}

/** How a snapshot tool becomes a catalog entry: its effect, family, operation, scope and cost. */
export function entryOf(tool: SnapshotTool): SnapshotEntry {
  const description = tool.description ?? ''
  const suffix = suffixOf(description)
  const notes = tool.annotations ?? {}
  const effect = effectOf(notes.effect, suffix.effect, notes.readOnlyHint)
  const words = tool.name.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)
  const external = notes.externalMutation === true || suffix.externalMutation === 'true'
  const declared = suffix.scope ?? null
  const info: SnapshotInfo = {
    effect,
    family: familyOf(words),
    platform: words.find((w) => PLATFORM_WORDS.includes(w)) ?? null,
    external_mutation: external,
    declared_scope: declared,
    required_entitlement: typeof notes.requiredEntitlement === 'string' ? notes.requiredEntitlement : suffix.requires ?? null,
    simulated: true,
  }
  return {
    name: tool.name,
    title: tool.title ?? (typeof notes.title === 'string' ? notes.title : tool.name),
    description,
    kind: effect === 'read' ? 'read' : 'write',
    operation: operationOf(effect, words, external),
    required_scope: declared && isKnownScope(declared) ? declared : effect === 'read' ? 'reporting:read' : 'campaigns:write',
    credit_cost: creditCostOf(description),
    platform_routed: false,
    executable: true,
    flags: [],
    aliases: [],
    mcp_tool: tool.name,
    snapshot: info,
  }
}

function effectOf(annotated: unknown, suffixed: string | undefined, readOnlyHint: unknown): Effect {
  for (const value of [annotated, suffixed]) if (typeof value === 'string' && (EFFECTS as readonly string[]).includes(value)) return value as Effect
  // A catalog without effects: the MCP hint decides; anything not read-only is a write.
  return readOnlyHint === true ? 'read' : 'write'
}

const PERFORMANCE_WORDS = ['performance', 'report', 'insights', 'metrics', 'stats', 'analytics', 'spend']
const LIST_WORDS = ['list', 'search', 'find', 'browse']
const GET_WORDS = ['get', 'fetch', 'describe', 'check', 'verify', 'estimate', 'forecast', 'lookup', 'status', 'profile', 'balance']

function familyOf(words: string[]): Family {
  if (words.some((w) => PERFORMANCE_WORDS.includes(w))) return 'performance'
  if (words.some((w) => LIST_WORDS.includes(w))) return 'list'
  if (words.some((w) => GET_WORDS.includes(w))) return 'get'
  return 'other'
}

/**
 * The gate's operation class (GATE-03) of a write: publishing is `publish`; otherwise the class its
 * name says (pause, enable, budget, remove, audience, creative, create); failing that an external
 * mutation is `external` and anything else `update`. The default policy holds `publish` and `external`.
 */
export function operationOf(effect: Effect, words: string[], external: boolean): Operation {
  if (effect === 'read') return 'read'
  if (effect === 'publish') return 'publish'
  const has = (...candidates: string[]) => candidates.some((c) => words.includes(c))
  if (has('pause', 'stop', 'suspend', 'disarm', 'disable')) return 'pause'
  if (has('enable', 'resume', 'activate', 'unpause', 'start')) return 'enable'
  if (has('budget', 'budgets')) return 'budget'
  if (has('delete', 'remove', 'archive')) return 'remove'
  if (has('audience', 'audiences', 'segment')) return 'audience'
  if (has('creative', 'image', 'video', 'asset', 'ad', 'ads')) return 'creative'
  if (has('create', 'launch', 'new')) return 'create'
  return external ? 'external' : 'update'
}

/** A cost the description states: "Costs 5 credits", "(2 credits)", "credits: 3"; "free" or none is 0. */
export function creditCostOf(description: string): number {
  const match = /(\d+(?:\.\d+)?)\s*credits?\b/i.exec(description) ?? /credits?\s*[:=]\s*(\d+(?:\.\d+)?)/i.exec(description)
  return match ? Number(match[1]) : 0
}

/** `[effect=read; scope=reporting:read; requires=x; externalMutation=true]` at the end of a description. */
function suffixOf(description: string): Record<string, string> {
  const match = /\[([^[\]]*=[^[\]]*)\]\s*$/.exec(description)
  if (!match) return {}
  return Object.fromEntries(match[1].split(';').map((part) => part.split('=').map((s) => s.trim())).filter((kv) => kv.length === 2 && kv[0]))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
