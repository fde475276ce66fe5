import fc from 'fast-check'
import { Contract } from '../../conformance/contract.js'
import { dispatchableNames } from '../domain/catalog.js'
import { MCP_TOOLS } from '../mcp/tool-table.js'
import { contractOperations } from './operations.js'
import type { Operation } from './operations.js'
import { MCP_SESSION, requestFor } from './requests.js'
import type { Pools } from './requests.js'
import { checkExchange, createdValue } from './invariants.js'
import type { Violation, ViolationKind } from './invariants.js'
import { startFuzzTarget } from './target.js'
import { REGRESSIONS } from './regressions.js'
import type { FuzzTarget, RawRequest, RawResponse } from './target.js'

/** The fixed seed `npm test` runs with; `FUZZ_SEED` or `--seed` picks another. */
export const DEFAULT_SEED = 20261125

/** A violation the suite knows about and reports without failing (listed in docs/reliability.md). */
export interface KnownFinding {
  id: string
  matches(req: RawRequest, res: RawResponse, violation: Violation): boolean
}

/** What a run measured: the Reliability figures of docs/reliability.md. */
export interface FuzzFigures {
  seed: number
  runs: number
  requests: number
  /** Requests Node's own client would not put on the wire (counted, not sent). */
  unsendable: number
  statuses: Record<string, number>
  violations: Record<ViolationKind, number>
  /** Violations matched by a known finding, by finding id. */
  known: Record<string, number>
  /** The first few examples of each known finding, for the report. */
  examples: string[]
}

export interface FuzzOptions {
  runs: number
  seed?: number
  known?: KnownFinding[]
  /** Reseeds the world every this many runs, so writes the fuzzer made (revoked keys, paused campaigns) do not pile up. */
  resetEvery?: number
  onProgress?: (figures: FuzzFigures) => void
}

const EMPTY_VIOLATIONS: Record<ViolationKind, number> = { 'no-answer': 0, '5xx': 0, 'error-shape': 0, 'refused-changed-state': 0, contract: 0, 'key-leak': 0 }

/** The pools of real values the generators draw from, read from the running world. */
export function poolsOf(target: FuzzTarget, extraIds: string[] = []): Pools {
  const store = target.sb.ctx.deps.store
  const ids = [...store.campaigns.filter(() => true).slice(0, 6).map((c) => c.id), ...store.keys.filter(() => true).map((k) => k.id),
    ...store.connections.filter(() => true).map((c) => c.id), ...store.workspaces.filter(() => true).map((w) => w.id), ...extraIds, 'usr_olivia', '0']
  return {
    keys: target.sb.ctx.worlds.keys().map((k) => k.value),
    ids,
    scripts: [...dispatchableNames(), 'pull_google_ads_data', 'no_such_script', 'list-campaigns'],
    mcpTools: [...MCP_TOOLS.map((t) => t.name), 'list_campaigns_nope'],
  }
}

/**
 * Property-based fuzzing of every contract operation (issue 13 item 7): one random request per
 * run against a live in-process sandbox, each checked by `checkExchange`. Fails (fast-check prints
 * the seed and the shrunk request) on any violation no known finding explains.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const seed = options.seed ?? DEFAULT_SEED
  const target = await startFuzzTarget()
  const contract = await Contract.load()
  const ops: Operation[] = contractOperations()
  const pools = poolsOf(target)
  const keyValues = new Set(pools.keys)
  const figures: FuzzFigures = { seed, runs: options.runs, requests: 0, unsendable: 0, statuses: {}, violations: { ...EMPTY_VIOLATIONS }, known: {}, examples: [] }
  let count = 0
  // The digest after one request is the digest before the next (nothing else runs in between): one per request.
  let last: Record<string, string> | null = null
  let session: string | null = null
  try {
    await fc.assert(fc.asyncProperty(requestFor(ops, pools), async (req) => {
      if (++count % (options.resetEvery ?? 200) === 0) {
        await target.sb.ctx.worlds.reset('default')
        last = null
        session = null
      }
      if (req.headers['mcp-session-id'] === MCP_SESSION) {
        // Opening a session is a request of its own (it marks the key used): digest afresh after it.
        if (!session) [session, last] = [await openSession(target, pools.keys[0]), null]
        req = { ...req, headers: { ...req.headers, 'mcp-session-id': session } }
      }
      const before = last ?? target.digest()
      const res = await target.send(req)
      if (res.failure?.startsWith('unsendable')) {
        figures.unsendable++
        return
      }
      figures.requests++
      figures.statuses[res.status] = (figures.statuses[res.status] ?? 0) + 1
      const created = createdValue(res.text)
      if (created && res.status === 201) keyValues.add(created)
      last = target.digest()
      const violations = checkExchange({ contract, keyValues }, { req, res, before, after: last })
      const unexplained = tally(figures, options.known ?? [], { req, res, violations })
      if (count % 1000 === 0) options.onProgress?.(figures)
      if (unexplained.length) throw new Error(`${describe(req)}\n -> ${res.status} ${res.text.slice(0, 300)}\n${unexplained.map((v) => `${v.kind}: ${v.detail}`).join('\n')}`)
    }), { seed, numRuns: options.runs, endOnFailure: true, examples: REGRESSIONS.map((req) => [req]) })
  } finally {
    await target.close()
  }
  return figures
}

/** A hosted MCP session of `key` (initialize over `X-Service-Key`), for the generated calls that use one. */
async function openSession(target: FuzzTarget, key: string): Promise<string> {
  const body = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }
  const res = await target.send({ host: 'base', method: 'POST', path: '/mcp', body: Buffer.from(JSON.stringify(body)),
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-service-key': key } })
  const id = res.headers['mcp-session-id']
  if (typeof id !== 'string') throw new Error(`initialize over X-Service-Key answered ${res.status} without a session: ${res.text.slice(0, 200)}`)
  return id
}

/** Counts each violation into the figures; returns those no known finding explains. */
function tally(figures: FuzzFigures, known: KnownFinding[], seen: { req: RawRequest; res: RawResponse; violations: Violation[] }): Violation[] {
  const { req, res } = seen
  return seen.violations.filter((v) => {
    figures.violations[v.kind]++
    const finding = known.find((k) => k.matches(req, res, v))
    if (!finding) return true
    figures.known[finding.id] = (figures.known[finding.id] ?? 0) + 1
    if (figures.known[finding.id] <= 2) figures.examples.push(`${finding.id}: ${describe(req)} -> ${res.status} ${res.text.slice(0, 160)}`)
    return false
  })
}

/** A request in one line, for failure messages and reports. */
export function describe(req: RawRequest): string {
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v).slice(0, 60)}`).join(' | ')
  const body = req.body ? ` body(${req.body.length}B)=${req.body.toString('utf8').slice(0, 120)}` : ''
  return `${req.method} ${req.host}${req.path.slice(0, 200)} [${req.operation}] {${headers}}${body}`
}
