import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KEYS, call } from '../test-support/http.js'
import { killServeChildren, spawnServe } from '../test-support/serve-child.js'

let dir: string
let state: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-serve-lock-'))
  state = join(dir, 'state.json')
})
afterEach(async () => {
  await killServeChildren()
  await rm(dir, { recursive: true, force: true })
})

// Each test spawns real processes; startup imports the whole CLI, which is slow on a loaded machine.
describe('serve: one writer per state file', { timeout: 60_000 }, () => {
  it('refuses a second serve on a held state file with exit 2 and one line naming the file, the running sandbox\'s URL, its pid and --state', async () => {
    const first = spawnServe(['--state', state, '--json'])
    const banner = await first.banner()
    const second = spawnServe(['--state', state, '--json'])
    expect(await second.exited).toBe(2)
    expect(second.stdout()).toBe('')
    expect(second.stderr()).toBe(`adops-sandbox: State file ${state} is in use by the sandbox running at ${banner.base_url} (pid ${first.child.pid}); use that sandbox, stop it, or start another with --state <another file> (or --state memory).\n`)
    // The holder is untouched and still answers.
    expect((await call(banner.api_url, 'GET', '/v1/me', { key: KEYS.owner })).status).toBe(200)
  })

  it('refuses a state file whose log was deleted with exit 2 and one line, and --force-reset starts afresh', async () => {
    const first = spawnServe(['--state', state, '--json'])
    const banner = await first.banner()
    expect((await call(banner.base_url, 'POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'logged', scopes: ['tools:read'] } })).status).toBe(201)
    await first.kill()
    await rm(`${state}.log`)
    const refused = spawnServe(['--state', state, '--json'])
    expect(await refused.exited).toBe(2)
    expect(refused.stdout()).toBe('')
    expect(refused.stderr()).toMatch(new RegExp(`^adops-sandbox: State file ${state} has lost its history: ${state}\\.log is missing, but its checkpoint covers \\d+ bytes of it\\. Restore it, or pass --reset to start the world afresh \\(dropping what ${state} holds\\)\\.\n$`))
    const fresh = spawnServe(['--state', state, '--json', '--force-reset'])
    expect((await fresh.banner()).resumed).toBe(false)
  })

  it('takes over the lock of a serve killed with SIGKILL and resumes its state', async () => {
    const first = spawnServe(['--state', state, '--json'])
    const banner = await first.banner()
    const created = await call(banner.base_url, 'POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'before-kill', scopes: ['tools:read'] } })
    expect(created.status).toBe(201)
    await first.kill()
    // The killed process could not release anything.
    expect(existsSync(`${state}.lock`)).toBe(true)

    const second = spawnServe(['--state', state, '--json'])
    const again = await second.banner()
    expect(again.resumed).toBe(true)
    expect(JSON.parse(await readFile(`${state}.owner`, 'utf8')).pid).toBe(second.child.pid)
    expect((await call(again.api_url, 'GET', '/v1/me', { key: created.body.key })).body.key.name).toBe('before-kill')
  })

  it.each(['SIGINT', 'SIGTERM'] as const)('releases the lock on %s, so the next serve starts at once', async (signal) => {
    const first = spawnServe(['--state', state, '--json'])
    await first.banner()
    first.child.kill(signal)
    expect(await first.exited).toBe(0)
    expect(existsSync(`${state}.lock`)).toBe(false)
    expect(existsSync(`${state}.owner`)).toBe(false)
    const second = spawnServe(['--state', state, '--json'])
    expect((await second.banner()).resumed).toBe(true)
  })

  it('a start that fails (port in use) leaves no state file behind, so the next start is fresh, not "resumed"', async () => {
    const first = spawnServe(['--state', 'memory', '--json'])
    const taken = new URL((await first.banner()).base_url).port
    const fresh = join(dir, 'new', 'state.json')
    const failed = spawnServe(['--state', fresh, '--port', taken])
    expect(await failed.exited).toBe(2)
    expect(failed.stderr()).toBe(`adops-sandbox: Port ${taken} is already in use. Stop the other process, or pass --port 0 for a free port.\n`)
    expect(existsSync(join(dir, 'new'))).toBe(false)
    // In a folder that exists, only what the failed start wrote goes: the folder and its other files stay.
    await writeFile(join(dir, 'notes.txt'), 'mine')
    const again = spawnServe(['--state', state, '--port', taken])
    expect(await again.exited).toBe(2)
    expect(await readdir(dir)).toEqual(['notes.txt'])
    // So does a world that fails to load.
    const badWorld = spawnServe(['--state', join(dir, 'other', 'state.json'), '--world', 'no-such-world'])
    expect(await badWorld.exited).toBe(2)
    expect(existsSync(join(dir, 'other'))).toBe(false)
    const next = spawnServe(['--state', state, '--json'])
    expect((await next.banner()).resumed).toBe(false)
  })

  it('Ctrl-C prints one human line (no JSON log line) without --json', async () => {
    const first = spawnServe(['--state', state])
    await first.waitFor('http://')
    first.child.kill('SIGINT')
    expect(await first.exited).toBe(0)
    expect(first.stderr()).toBe(`adops-sandbox: stopped; state saved in ${state}.\n`)
  })
})
