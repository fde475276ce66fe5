import type { FaultRule } from '../domain/model.js'
import { redactValue } from '../support/redact.js'
import type { FaultRequest, Miss } from './fault-match.js'

/** A request no active rule matched, with each rule's failed conditions, closest rule first. */
export interface NearMiss {
  at: string
  request: { method: string; host: 'base' | 'api'; path: string; script_name?: string; mcp_tool?: string }
  rules: Array<{ rule_id: string; failed: Miss[] }>
}

/** How many unmatched requests are kept (sandbox decision: memory stays bounded). */
export const NEAR_MISS_LIMIT = 100

/**
 * The near-miss view of scripted faults (issue 19 item 3, WireMock's "near misses"): the most
 * recent requests that reached the fault layer while rules were active and matched none, newest
 * first. Values are redacted like the journal (a key sent as data never shows).
 */
export class NearMisses {
  readonly #entries: NearMiss[] = []

  record(at: string, request: FaultRequest, misses: Array<{ rule: FaultRule; failed: Miss[] }>): void {
    const body = request.body as { script_name?: unknown; method?: unknown; params?: { name?: unknown } } | undefined
    const rules = misses
      .map(({ rule, failed }) => ({ rule_id: rule.id, failed: failed.map((f) => ({ ...f, actual: clip(redactValue(f.actual)) })) }))
      .sort((a, b) => a.failed.length - b.failed.length)
    this.#entries.unshift({
      at,
      request: {
        method: request.method,
        host: request.host,
        path: request.path,
        ...(typeof body?.script_name === 'string' ? { script_name: redactValue(body.script_name).slice(0, 100) } : {}),
        ...(body?.method === 'tools/call' && typeof body.params?.name === 'string' ? { mcp_tool: body.params.name.slice(0, 100) } : {}),
      },
      rules,
    })
    this.#entries.length = Math.min(this.#entries.length, NEAR_MISS_LIMIT)
  }

  /** Newest first; `rule` keeps only entries where that rule missed. */
  list(options: { rule?: string; limit?: number } = {}): NearMiss[] {
    const limit = Math.max(1, Math.min(options.limit ?? NEAR_MISS_LIMIT, NEAR_MISS_LIMIT))
    const entries = options.rule
      ? this.#entries.flatMap((e) => {
        const rules = e.rules.filter((r) => r.rule_id === options.rule)
        return rules.length ? [{ ...e, rules }] : []
      })
      : this.#entries
    return entries.slice(0, limit)
  }

  clear(): number {
    const n = this.#entries.length
    this.#entries.length = 0
    return n
  }
}

// A body value can be large: the view keeps its first 200 characters of JSON.
function clip(value: unknown): unknown {
  const text = JSON.stringify(value) ?? 'undefined'
  return text.length <= 200 ? value : `${text.slice(0, 200)}…`
}

// One view per app context, made on first use, so every way of building a context gets one.
const views = new WeakMap<object, NearMisses>()

/** The near-miss view of a sandbox (shared by both hosts' fault layers and the control plane). */
export function nearMissesOf(ctx: object): NearMisses {
  let view = views.get(ctx)
  if (!view) views.set(ctx, (view = new NearMisses()))
  return view
}
