import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { ControlClient } from '../src/client/control-client.js'
import type { Scenario } from './schema.js'
import { renameIds, runsInCopy, supportsWorldCopies } from './world-copies.js'

describe('world copies: what runs in a copy, and how ids are mapped', () => {
  const scenario = (extra: Partial<Scenario> = {}): Scenario => ({
    file: 'x.yaml', id: 'x', title: 'x', covers: [], tags: [], world: 'default', requires: [], serial: false, isolation: 'parallel', vars: {}, setup: [], teardown: [],
    steps: [{ control: { clock: { advance: '1h' } } }] as Scenario['steps'], ...extra,
  })

  it.each([
    ['a clock scenario', {}, true],
    ['a serial one', { isolation: 'serial' as const }, false],
    ['one that resets', { steps: [{ control: { reset: true } }] as Scenario['steps'] }, false],
    ['one that scripts faults', { teardown: [{ control: { fault: {} } }] as Scenario['steps'] }, false],
    ['one that reads the journal', { requires: ['journal'] }, false],
    ['one on a world file path', { world: './my-world.yaml' }, false],
  ])('%s runs in a copy: %s', (_label, extra, expected) => {
    expect(runsInCopy(scenario(extra))).toBe(expected)
  })

  it('renames whole ids in values and keys, never a longer id that starts with one', () => {
    const renamed = renameIds(scenario({
      steps: [{ control: { policy: { workspace: 'ws_acme' } }, expect: { match: { "$.x[?(@.ws == 'ws_acme')]": 'ws_acme_other, usr_olivia' } } }] as Scenario['steps'],
    }), { ws_acme: 'ws_acme_k1', usr_olivia: 'usr_olivia_k1' })
    expect(renamed.steps).toEqual([{ control: { policy: { workspace: 'ws_acme_k1' } }, expect: { match: { "$.x[?(@.ws == 'ws_acme_k1')]": 'ws_acme_other, usr_olivia_k1' } } }])
  })

  it('a sandbox whose control plane lacks the routes is run the old way (one at a time, the sandbox clock)', async () => {
    const old = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"No route","code":"ROUTE_NOT_FOUND"}'))
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = old.address() as AddressInfo
      expect(await supportsWorldCopies(new ControlClient(`http://127.0.0.1:${port}`))).toBe(false)
    } finally {
      await new Promise((resolve) => old.close(resolve))
    }
  })
})
