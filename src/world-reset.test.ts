import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse, stringify } from 'yaml'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Sandbox } from './sandbox.js'
import { buildSandbox } from './sandbox.js'

let dir: string
let sandbox: Sandbox
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-reset-'))
  sandbox = await buildSandbox({ state: join(dir, 'state.json') })
})
afterEach(async () => {
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

describe('world reset', () => {
  it('leaves the state untouched when a world fails half-way through seeding, history included', async () => {
    const world = parse(await readFile('fixtures/worlds/default.yaml', 'utf8')) as { users: unknown[] }
    // The second copy of the first user fails its insert after the first user was seeded.
    world.users.push(world.users[0])
    const bad = join(dir, 'bad.yaml')
    await writeFile(bad, stringify(world))
    const { store } = sandbox.ctx.deps
    store.audit.insert({ id: 'aud_kept', at: '2026-01-01T00:00:00.000Z', workspace_id: 'ws_acme', status: 'executed' } as never)
    await store.commit()
    const before = JSON.stringify(store.snapshot())
    await expect(sandbox.ctx.worlds.reset(bad)).rejects.toThrow(/duplicate id/)
    expect(JSON.stringify(store.snapshot())).toBe(before)
    // A good world still resets everything, history included.
    await sandbox.ctx.worlds.reset('default')
    expect(store.audit.get('aud_kept')).toBeUndefined()
    expect(store.users.size()).toBe(world.users.length - 1)
  })
})
