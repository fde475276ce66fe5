import type { CatalogEntry, FlagSpec } from './catalog.js'
import { CATALOG, findEntry } from './catalog.js'
import { closest } from '../support/did-you-mean.js'
import { PLATFORMS } from './catalog-flags.js'
import { SandboxError } from './errors.js'
import { DATE_MESSAGE, isCalendarDate } from './dates.js'
import type { SnapshotCatalog, SnapshotEntry } from './catalog-snapshot.js'
import { prepareSnapshotCall } from './catalog-snapshot-call.js'

export type ArgValue = string | number | boolean | string[]
/** Parsed flag values keyed by snake_case name: `--daily-budget 50` → `{daily_budget: 50}`. */
export type ArgValues = Record<string, ArgValue>

/** A dispatch request after validation: nothing has run, nothing is charged (ERR-05). */
export interface PreparedCall {
  entry: CatalogEntry
  /** The args exactly as sent (what a reviewer sees as `reviewed_args`). */
  args: string[]
  values: ArgValues
  platform: string
  /** `--dry-run` in the args or `dry_run: true` in the body: decide and price a write, run nothing. */
  dry_run?: boolean
}

/**
 * Resolves a script name and validates its ordered args and platform (DISP-01, DISP-04, DISP-05,
 * ERR-05): unknown script → UNKNOWN_SCRIPT (with a hint for MCP tool names), unknown flag →
 * UNRECOGNIZED_ARGS, bad value → INVALID_ARGS, missing/unsupported platform → UNSUPPORTED_PLATFORM.
 */
export function prepareCall(input: { script_name: string; args: readonly string[]; platform?: string | null; dry_run?: boolean }, snapshot?: SnapshotCatalog): PreparedCall {
  const entry = resolveScript(input.script_name, snapshot)
  // A loaded catalog's simulated tool: JSON arguments checked against its inputSchema (issue 35).
  if (snapshot && entry.snapshot) return prepareSnapshotCall(snapshot, entry as SnapshotEntry, input)
  // Every write script accepts `--dry-run`: a request to the gate, not a flag of the script.
  const { args, dryRun } = entry.kind === 'write' ? stripDryRun(input.args) : { args: [...input.args], dryRun: false }
  const values = parseArgs(entry, args)
  const call: PreparedCall = { entry, args, values, platform: resolvePlatform(entry, input.platform ?? null, values) }
  return dryRun || (entry.kind === 'write' && input.dry_run === true) ? { ...call, dry_run: true } : call
}

/**
 * The catalog entry a script name dispatches to (DISP-04): unknown → UNKNOWN_SCRIPT, an MCP tool
 * name → the same 400 with a hint. HTTP resolves it first to know which scope to authorize.
 */
export function resolveScript(scriptName: string, snapshot?: SnapshotCatalog): CatalogEntry {
  // The sandbox's own entries win: a catalog never replaces a modelled script (issue 35).
  const entry = findEntry(scriptName) ?? snapshot?.find(scriptName)
  if (!entry) {
    const near = closest(scriptName, CATALOG.filter((e) => e.executable).flatMap((e) => [e.name, ...e.aliases]))
    throw new SandboxError('UNKNOWN_SCRIPT', near ? { script_name: scriptName, hint: `Did you mean \`${near}\`?`, did_you_mean: near } : { script_name: scriptName })
  }
  if (!entry.executable) throw new SandboxError('UNKNOWN_SCRIPT', { script_name: scriptName, hint: hintFor(entry), use_instead: entry.use_instead })
  return entry
}

/** Parses ordered CLI-style args against a script's flags; unknown flags are reported first, all at once. */
export function parseArgs(entry: CatalogEntry, args: readonly string[]): ArgValues {
  const { specs, keys } = flagTable(entry)
  const tokens = tokenize(args)
  const unknown = tokens.filter((t) => t.flag === null || !specs.has(t.flag)).map((t) => t.flag ?? t.value ?? '')
  if (unknown.length > 0) throw new SandboxError('UNRECOGNIZED_ARGS', { script_name: entry.name, flags: unknown })
  const raw = new Map<FlagSpec, string[]>()
  for (const token of tokens) {
    const spec = specs.get(token.flag as string) as FlagSpec
    if (token.value === null && spec.type !== 'boolean') throw invalid(spec, 'the flag needs a value')
    const seen = raw.get(spec) ?? []
    if (seen.length > 0 && !spec.repeatable) throw invalid(spec, 'the flag may be given only once')
    raw.set(spec, [...seen, token.value ?? 'true'])
  }
  const values: ArgValues = {}
  for (const spec of entry.flags) {
    const given = raw.get(spec)
    if (!given) {
      if (spec.required) throw invalid(spec, 'the flag is required')
      continue
    }
    values[keys.get(spec) as string] = spec.repeatable ? repeated(spec, given) : convert(spec, given[0])
  }
  return values
}

interface FlagTable {
  specs: ReadonlyMap<string, FlagSpec>
  keys: ReadonlyMap<FlagSpec, string>
}

// Catalog entries never change: each one's flags by name and value keys are built on its first call.
const flagTables = new WeakMap<CatalogEntry, FlagTable>()

function flagTable(entry: CatalogEntry): FlagTable {
  let table = flagTables.get(entry)
  if (!table) {
    table = { specs: new Map(entry.flags.map((f) => [f.name, f])), keys: new Map(entry.flags.map((f) => [f, keyOf(f.name)])) }
    flagTables.set(entry, table)
  }
  return table
}

/** Removes `--dry-run`, `--dry-run=true|false` or `--dry-run true|false` from a write's args. */
export function stripDryRun(input: readonly string[]): { args: string[]; dryRun: boolean } {
  const args: string[] = []
  let dryRun = false
  for (let i = 0; i < input.length; i++) {
    const arg = input[i]
    const eq = /^--dry-run=(true|false)$/i.exec(arg)
    if (eq) {
      dryRun = eq[1].toLowerCase() === 'true'
      continue
    }
    if (arg !== '--dry-run') {
      args.push(arg)
      continue
    }
    const next = input[i + 1]?.toLowerCase()
    dryRun = next !== 'false'
    if (next === 'true' || next === 'false') i++
  }
  return { args, dryRun }
}

/** `--daily-budget` → `daily_budget`. */
export function keyOf(flagName: string): string {
  return flagName.replace(/^-+/, '').replace(/-/g, '_')
}

interface Token { flag: string | null; value: string | null }

function tokenize(args: readonly string[]): Token[] {
  const tokens: Token[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (!arg.startsWith('--')) {
      tokens.push({ flag: null, value: arg })
      continue
    }
    const eq = arg.indexOf('=')
    if (eq > 0) {
      tokens.push({ flag: arg.slice(0, eq), value: arg.slice(eq + 1) })
      continue
    }
    // A value is the next arg unless that is itself a flag (`--campaign-id --daily-budget 5`).
    const next = args[i + 1]
    const hasValue = next !== undefined && !next.startsWith('--')
    tokens.push({ flag: arg, value: hasValue ? next : null })
    if (hasValue) i++
  }
  return tokens
}

function repeated(spec: FlagSpec, given: string[]): string[] {
  const values = given.map((v) => convert(spec, v) as string)
  const { min_count, max_count } = spec.bounds ?? {}
  if (min_count !== undefined && values.length < min_count) throw invalid(spec, `needs at least ${min_count} values, got ${values.length}`)
  if (max_count !== undefined && values.length > max_count) throw invalid(spec, `takes at most ${max_count} values, got ${values.length}`)
  return values
}

function convert(spec: FlagSpec, text: string): ArgValue {
  const value = text.trim()
  switch (spec.type) {
    case 'integer':
      if (!/^-?\d+$/.test(value)) throw invalid(spec, `must be an integer, got "${text}"`)
      return inBounds(spec, Number(value))
    case 'number':
      if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(value)) throw invalid(spec, `must be a number, got "${text}"`)
      return inBounds(spec, Number(value))
    case 'boolean':
      if (!['true', 'false'].includes(value.toLowerCase())) throw invalid(spec, `must be true or false, got "${text}"`)
      return value.toLowerCase() === 'true'
    case 'date':
      if (!isCalendarDate(value)) throw invalid(spec, `${DATE_MESSAGE}, got "${text}"`)
      return value
    case 'url':
      if (!/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value)) throw invalid(spec, `must be an http(s) URL, got "${text}"`)
      return value
    case 'list':
      return list(spec, value)
    default:
      return choice(spec, value)
  }
}

function list(spec: FlagSpec, value: string): string[] {
  const items = value.split(',').map((s) => s.trim()).filter(Boolean)
  if (items.length === 0) throw invalid(spec, 'must be a non-empty comma-separated list')
  const max = spec.bounds?.max_count
  if (max !== undefined && items.length > max) throw invalid(spec, `takes at most ${max} items, got ${items.length}`)
  return items
}

function choice(spec: FlagSpec, value: string): string {
  if (value === '') throw invalid(spec, 'must not be empty')
  const max = spec.bounds?.max_length
  if (max !== undefined && value.length > max) throw invalid(spec, `must be at most ${max} characters, got ${value.length}`)
  if (!spec.choices) return value
  const match = spec.choices.find((c) => c.toLowerCase() === value.toLowerCase())
  if (!match) throw invalid(spec, `must be one of ${spec.choices.join(', ')}, got "${value}"`)
  return match
}

function inBounds(spec: FlagSpec, value: number): number {
  const { min, max } = spec.bounds ?? {}
  if (min !== undefined && value < min) throw invalid(spec, `must be at least ${min}, got ${value}`)
  if (max !== undefined && value > max) throw invalid(spec, `must be at most ${max}, got ${value}`)
  return value
}

function resolvePlatform(entry: CatalogEntry, bodyPlatform: string | null, values: ArgValues): string {
  const fromFlag = typeof values.platform === 'string' ? values.platform : null
  const given = [bodyPlatform, fromFlag].filter((p): p is string => p !== null && p.trim() !== '').map((p) => p.trim().toLowerCase())
  if (given.length === 2 && given[0] !== given[1]) {
    throw new SandboxError('UNSUPPORTED_PLATFORM', { reason: `platform "${bodyPlatform}" and --platform "${fromFlag}" disagree`, platform: bodyPlatform })
  }
  if (given.length === 0) {
    if (entry.platform_routed) {
      throw new SandboxError('UNSUPPORTED_PLATFORM', {
        reason: `${entry.name} is platform-routed: send \`platform\` (supported: ${PLATFORMS.join(', ')})`, platform: null,
      })
    }
    return 'google'
  }
  if (!PLATFORMS.includes(given[0])) {
    throw new SandboxError('UNSUPPORTED_PLATFORM', {
      reason: `unsupported platform "${given[0]}"; supported: ${PLATFORMS.join(', ')}`, platform: given[0],
    })
  }
  return given[0]
}

function hintFor(entry: CatalogEntry): string {
  if (entry.use_instead && findEntry(entry.use_instead)) return `${entry.name} is an MCP tool name, not a script; dispatch ${entry.use_instead}.`
  return `${entry.name} is not dispatchable; use ${entry.use_instead}.`
}

function invalid(spec: FlagSpec, reason: string): SandboxError {
  return new SandboxError('INVALID_ARGS', { flag: spec.name, reason })
}
