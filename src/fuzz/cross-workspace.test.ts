import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectHttp } from '../mcp/mcp-test-support.js'
import { startFuzzTarget } from './target.js'
import type { FuzzTarget } from './target.js'
import { PINNED, probesFor, seedOwned } from './cross-workspace.js'
import type { Owned, Probe, WorkspaceId } from './cross-workspace.js'

let target: FuzzTarget
let owned: Record<WorkspaceId, Owned>
const clients = new Map<WorkspaceId, Client>()
beforeAll(async () => {
  target = await startFuzzTarget('multi-workspace')
  owned = await seedOwned(target)
  for (const [ws, key] of Object.entries(PINNED) as Array<[WorkspaceId, string]>) clients.set(ws, await connectHttp(target.urls.base, { headers: { 'x-service-key': key } }))
}, 60_000)
afterAll(async () => {
  await Promise.all([...clients.values()].map((c) => c.close()))
  await target?.close()
})

const WORKSPACES = Object.keys(PINNED) as WorkspaceId[]
// Every ordered pair: parent → child, child → parent and child → sibling, all under one user (Alex).
const PAIRS = WORKSPACES.flatMap((caller) => WORKSPACES.filter((w) => w !== caller).map((foreign) => [caller, foreign] as const))

/** Status and text of one probe made with `caller`'s pinned key. */
async function answer(caller: WorkspaceId, probe: Probe): Promise<{ status: number; text: string }> {
  if (probe.tool) {
    const result = await clients.get(caller)!.callTool(probe.tool)
    const text = JSON.stringify(result)
    const code = /"code\\?":\\?"([A-Z_]+)/.exec(text)?.[1]
    return { status: result.isError && code === 'NOT_FOUND' ? 404 : result.isError ? 400 : 200, text }
  }
  const body = probe.body === undefined ? undefined : Buffer.from(JSON.stringify(probe.body))
  const headers = { authorization: `Bearer ${PINNED[caller]}`, 'content-type': 'application/json' }
  return target.send({ host: probe.host, method: probe.method, path: probe.path, headers, body })
}

describe('the cross-workspace matrix: every id-taking route on every surface with ids of another workspace', () => {
  it.each(PAIRS)('a key pinned to %s gets 404 and no data for every id of %s, and changes nothing', async (caller, foreign) => {
    const probes = probesFor(owned[foreign])
    expect(new Set(probes.map((p) => p.surface))).toEqual(new Set(['rest-base', 'rest-api', 'dispatcher-base', 'dispatcher-api', 'mcp']))
    const wrong: string[] = []
    for (const probe of probes) {
      const before = target.digest()
      const { status, text } = await answer(caller, probe)
      const leaked = owned[foreign].secrets.filter((s) => text.includes(s))
      const changed = Object.keys(before).filter((t) => before[t] !== target.digest()[t])
      if (status !== 404 || leaked.length || changed.length) wrong.push(`${probe.surface} ${probe.what}: ${status}${leaked.length ? ` leaked ${leaked.join(', ')}` : ''}${changed.length ? ` changed ${changed.join(', ')}` : ''} ${text.slice(0, 160)}`)
    }
    expect(wrong, wrong.join('\n')).toEqual([])
  }, 60_000)

  it('reaches the same routes with the owner\'s own ids on every surface (the matrix would otherwise prove nothing)', async () => {
    // The reads: REST GETs, the performance script on both hosts' dispatchers and its MCP tool.
    const reads = probesFor(owned.ws_client_a).filter((p) => (p.method === 'GET' && !p.tool) || p.what === 'pull_google_ads --campaign-id'
      || p.tool?.name === 'pull_google_ads_performance')
    expect(new Set(reads.map((p) => p.surface)).size).toBe(5)
    for (const probe of reads) expect((await answer('ws_client_a', probe)).status, `${probe.surface} ${probe.what}`).toBe(200)
  })
})
