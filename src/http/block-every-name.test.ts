import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { OPERATIONS } from '../domain/model.js'
import type { Ids, Way } from '../test-support/write-ways.js'
import { ARGS, EXECUTABLE, GATED, names, openWriteWays, targetOf } from '../test-support/write-ways.js'

/**
 * Sandbox decision (GATE-02): a block is a block under every name. For every name of every gated
 * write in the catalog, `block_tools: [name]` is set; every way of performing a write of the same
 * operation on the same resource (dispatcher on both hosts and MCP `run_tool` under each name, the
 * REST routes, the MCP tools) is blocked, and one way per surface of every other write is not.
 * Everything not blocked is held (every operation is on hold), so no call changes state. The whole
 * product, every way under every block, runs in block-every-name-full.test.ts (slow project).
 */
let sb: TestSandbox
let ids: Ids
let ways: Way[]
let close: () => Promise<void>
beforeAll(async () => {
  ;({ sb, ids, ways, close } = await openWriteWays())
})
afterAll(() => close())

describe('block_tools blocks the operation on a resource under every name, on every surface (GATE-02 sandbox decision)', () => {
  it('every executable write has test args, and every surface has ways', () => {
    expect(EXECUTABLE.map((e) => e.name).filter((n) => !ARGS[n])).toEqual([])
    expect(new Set(ways.map((w) => w.surface))).toEqual(new Set(['base dispatcher', 'api dispatcher', 'MCP run_tool', 'REST', 'MCP tool']))
  })

  it('pauses are one operation, campaign creation of every type is one, every other write is its own', () => {
    const groups = new Map<string, string[]>()
    for (const e of GATED) groups.set(targetOf(e), [...(groups.get(targetOf(e)) ?? []), e.name])
    expect([...groups.values()].filter((g) => g.length > 1)).toEqual([
      ['pause_campaign', 'google_ads_pause_campaign'],
      ['google_ads_create_search_campaign', 'google_ads_create_display_campaign', 'google_ads_create_pmax_campaign'],
    ])
  })

  const blockNames = GATED.flatMap((e) => names(e).map((name) => [name, e] as const))
  it.each(blockNames)('block_tools [%s] blocks every way of its operation and leaves the others to the hold', async (blockName, blockedEntry) => {
    await sb.control.setPolicy('ws_acme', { hold: OPERATIONS.filter((o) => o !== 'read'), block_tools: [blockName] })
    const same = ways.filter((w) => targetOf(w.entry) === targetOf(blockedEntry))
    // One way per surface of a write that is not blocked.
    const others = [...new Map(ways.filter((w) => targetOf(w.entry) !== targetOf(blockedEntry)).map((w) => [w.surface, w])).values()]
    const wrong: string[] = []
    for (const [way, expected] of [...same.map((w) => [w, 'blocked'] as const), ...others.map((w) => [w, 'pending_review'] as const)]) {
      const got = await way.send(ids)
      if (got !== expected) wrong.push(`${way.label}: expected ${expected}, got ${got}`)
    }
    expect(wrong).toEqual([])
    expect(same.length).toBeGreaterThanOrEqual(3)
  })
})
