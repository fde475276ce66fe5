import { JSONPath } from 'jsonpath-plus'
import type { FaultBodyCondition, FaultRule } from '../domain/model.js'
import { findEntry } from '../domain/catalog.js'

/** What a fault rule can look at in one request; `workspace` is computed only if a rule asks. */
export interface FaultRequest {
  method: string
  host: 'base' | 'api'
  path: string
  credential: string | null
  /** Parsed JSON body (dispatcher, MCP and any JSON request while a rule reads bodies), else undefined. */
  body: unknown
  workspace(): string | null
}

/** One condition of a rule that a request did not meet (the near-miss view lists these). */
export interface Miss {
  condition: string
  expected: unknown
  actual: unknown
}

/**
 * Every condition of `rule` that `request` fails; none means the rule matches. Conditions: method,
 * host, path (`*` wildcard), key prefix, workspace, script name (or its alias), flags in the
 * dispatcher's `args` (present, or with a value), JSONPath conditions on the body, and the MCP tool
 * name and arguments of a `tools/call`.
 */
export function missesOf(rule: FaultRule, request: FaultRequest): Miss[] {
  const m = rule.match
  const misses: Miss[] = []
  const check = (condition: string, expected: unknown, actual: unknown, ok: boolean) => {
    if (!ok) misses.push({ condition, expected, actual })
  }
  if (m.method) check('method', m.method.toUpperCase(), request.method, m.method.toUpperCase() === request.method)
  if (m.host) check('host', m.host, request.host, m.host === request.host)
  if (m.path) check('path', m.path, request.path, pathMatches(m.path, request.path))
  if (m.key_prefix) check('key_prefix', m.key_prefix, request.credential ? 'a key with another prefix' : 'no key', request.credential?.startsWith(m.key_prefix) === true)
  if (m.workspace_id) {
    const actual = request.workspace()
    check('workspace_id', m.workspace_id, actual, actual === m.workspace_id)
  }
  const run = request.body as { script_name?: unknown; args?: unknown } | undefined
  if (m.script_name) {
    const sent = typeof run?.script_name === 'string' ? run.script_name : null
    check('script_name', m.script_name, sent, sent !== null && (sent === m.script_name || findEntry(sent)?.name === m.script_name))
  }
  for (const [flag, want] of Object.entries(m.flags ?? {})) {
    const got = flagValue(run?.args, flag)
    check(`flags.${flag}`, want, got === undefined ? 'absent' : got, got !== undefined && (want === true || String(want) === String(got)))
  }
  for (const condition of m.body ?? []) {
    const found = query(condition.path, request.body)
    check(`body ${condition.path}`, describe(condition), found.length === 0 ? 'absent' : found.length === 1 ? found[0] : found, bodyHolds(condition, found))
  }
  if (m.mcp_tool || m.mcp_arguments) {
    const call = mcpCall(request.body)
    if (m.mcp_tool) check('mcp_tool', m.mcp_tool, call?.name ?? null, call?.name === m.mcp_tool)
    for (const [name, want] of Object.entries(m.mcp_arguments ?? {})) {
      const got = call?.arguments?.[name]
      check(`mcp_arguments.${name}`, want, got === undefined ? 'absent' : got, got !== undefined && JSON.stringify(got) === JSON.stringify(want))
    }
  }
  return misses
}

/** The values at `path`; none for a request without a JSON body (JSONPath refuses null). */
function query(path: string, body: unknown): unknown[] {
  if (body === undefined || body === null || typeof body !== 'object') return []
  try {
    return JSONPath({ path, json: body as object, wrap: true, eval: 'safe' }) as unknown[]
  } catch {
    return []
  }
}

function bodyHolds(condition: FaultBodyCondition, found: unknown[]): boolean {
  if (condition.exists === false) return found.length === 0
  if (found.length === 0) return false
  if (condition.equals !== undefined) return found.some((v) => JSON.stringify(v) === JSON.stringify(condition.equals))
  if (condition.contains !== undefined) return found.some((v) => (typeof v === 'string' ? v.includes(condition.contains!) : Array.isArray(v) && v.includes(condition.contains)))
  if (condition.matches !== undefined) return found.some((v) => typeof v === 'string' && new RegExp(condition.matches!).test(v))
  return true
}

function describe(condition: FaultBodyCondition): unknown {
  const { path: _path, ...test } = condition
  return Object.keys(test).length === 0 ? { exists: true } : test
}

/** `--flag value`, `--flag=value`, or a bare `--flag` (true); undefined when absent. */
export function flagValue(args: unknown, flag: string): string | true | undefined {
  if (!Array.isArray(args)) return undefined
  const name = flag.startsWith('--') ? flag : `--${flag}`
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (typeof arg !== 'string') continue
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1)
    if (arg !== name) continue
    const next = args[i + 1]
    return typeof next === 'string' && !next.startsWith('--') ? next : true
  }
  return undefined
}

/** The tool name and arguments of an MCP `tools/call` (the first one in a batch). */
function mcpCall(body: unknown): { name?: string; arguments?: Record<string, unknown> } | null {
  const messages = Array.isArray(body) ? body : [body]
  const call = messages.find((m) => (m as { method?: unknown } | null)?.method === 'tools/call') as { params?: { name?: string; arguments?: Record<string, unknown> } } | undefined
  return call?.params ?? null
}

// `*` matches any run of characters; without one the path must be equal.
function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return pattern === path
  const regex = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
  return regex.test(path)
}

/** Whether a rule reads the body beyond the dispatcher's script name. */
export function readsBody(rule: FaultRule): boolean {
  const m = rule.match
  return Boolean(m.body?.length || m.mcp_tool || m.mcp_arguments || (m.flags && Object.keys(m.flags).length))
}
