import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS } from '../test-support/http.js'
import { OPERATIONS } from '../domain/model.js'
import type { Ids, Way } from '../test-support/write-ways.js'
import { GATED, names, openWriteWays, targetOf } from '../test-support/write-ways.js'

/**
 * Sandbox decision (GATE-02), the whole product: for every name of every gated write as the only
 * `block_tools` entry, every way of performing every write (each catalog entry × each of its names ×
 * dispatcher on both hosts, REST, MCP tool, MCP `run_tool`) is blocked exactly when it performs the
 * same operation on the same resource, and held otherwise (every operation is on hold). ~900 calls,
 * so in the slow project; block-every-name.test.ts is the fast cut.
 */
let sb: TestSandbox
let ids: Ids
let ways: Way[]
let close: () => Promise<void>
beforeAll(async () => {
  ;({ sb, ids, ways, close } = await openWriteWays())
})
afterAll(() => close())

describe('block_tools: every name × every way of every write (GATE-02 sandbox decision)', () => {
  const blockNames = GATED.flatMap((e) => names(e).map((name) => [name, e] as const))
  it.each(blockNames)('block_tools [%s] blocks exactly the ways that perform its operation', async (blockName, blockedEntry) => {
    await sb.control.setPolicy('ws_acme', { hold: OPERATIONS.filter((o) => o !== 'read'), block_tools: [blockName] })
    const wrong: string[] = []
    for (const way of ways) {
      const expected = targetOf(way.entry) === targetOf(blockedEntry) ? 'blocked' : 'pending_review'
      const got = await way.send(ids)
      if (got !== expected) wrong.push(`${way.label}: expected ${expected}, got ${got}`)
    }
    expect(wrong).toEqual([])
    expect((await sb.api('GET', `/v1/campaigns/${ids.enabled}`, { key: KEYS.owner })).body).toMatchObject({ status: 'ENABLED' })
  })
})
