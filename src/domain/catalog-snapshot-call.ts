import type { PreparedCall } from './args.js'
import type { SnapshotCatalog, SnapshotEntry } from './catalog-snapshot.js'
import { SandboxError } from './errors.js'

/**
 * A snapshot tool's JSON arguments as dispatcher args, one `--<name>=<JSON value>` per argument in
 * key order: what the audit stores and a reviewer sees as `reviewed_args`, and what an approval
 * replays (issue 35 item 4). JSON keeps `"25"` and `25` apart, so the replay is the same call.
 */
export function encodeArguments(args: Record<string, unknown>): string[] {
  return Object.keys(args).filter((k) => args[k] !== undefined).map((k) => `--${k}=${JSON.stringify(args[k])}`)
}

/** The inverse of `encodeArguments`; anything else is 400 INVALID_ARGS naming the arg. */
export function decodeArguments(args: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const arg of args) {
    const match = /^--([^=]+)=([\s\S]*)$/.exec(arg)
    if (!match) throw new SandboxError('INVALID_ARGS', { flag: arg, reason: 'a catalog tool takes its arguments as --<name>=<JSON value>' })
    try {
      out[match[1]] = JSON.parse(match[2])
    } catch {
      throw new SandboxError('INVALID_ARGS', { flag: `--${match[1]}`, reason: `the value is not JSON: ${match[2].slice(0, 80)}` })
    }
  }
  return out
}

/**
 * Prepares a call of a simulated snapshot tool: decode, validate against its `inputSchema` with
 * defaults filled in; the values are the validated arguments. The platform is the `platform`
 * argument, else the one the name mentions.
 */
export function prepareSnapshotCall(catalog: SnapshotCatalog, entry: SnapshotEntry, input: { args: readonly string[]; platform?: string | null; dry_run?: boolean }): PreparedCall {
  const values = catalog.valuesOf(entry.name, input.args, decodeArguments)
  const named = typeof values.platform === 'string' ? values.platform : input.platform ?? entry.snapshot.platform
  const call: PreparedCall = { entry, args: [...input.args], values: values as PreparedCall['values'], platform: (named ?? '').trim().toLowerCase() }
  return entry.kind === 'write' && input.dry_run === true ? { ...call, dry_run: true } : call
}
