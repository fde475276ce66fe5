import { createServer } from 'node:net'
import type { AddressInfo, Server } from 'node:net'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KEYS, call } from '../test-support/http.js'
import { killServeChildren, spawnServe } from '../test-support/serve-child.js'

const VALUES = Object.values(KEYS)

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-cli-'))
})
afterEach(async () => {
  await killServeChildren()
  await rm(dir, { recursive: true, force: true })
})

// Ports and log level given here override spawnServe's defaults (the last flag wins).
const serve = spawnServe

// Each test spawns a real process; startup imports the whole CLI, which is slow on a loaded CI machine.
describe('adops-sandbox serve', { timeout: 60_000 }, () => {
  it('prints a JSON banner line, answers, and on SIGINT flushes state and exits 0', async () => {
    const state = join(dir, 'state.json')
    const run = serve(['--port', '0', '--api-port', '0', '--state', state, '--json'])
    await run.waitFor('\n')
    const banner = JSON.parse(run.stdout().split('\n')[0])
    expect(banner).toMatchObject({ state, resumed: false, world: 'default', seed: 42, control_plane: 'token', admin_token: expect.stringMatching(/^sbx_admin_[\w-]{43}$/) })
    expect(banner.keys.map((k: { name: string }) => k.name)).toEqual(['owner', 'agent', 'reviewer', 'reporting', 'signup'])
    for (const value of VALUES) expect(run.stdout()).not.toContain(value)

    const me = await call(banner.api_url, 'GET', '/v1/me', { key: KEYS.owner })
    expect(me.body.workspace.id).toBe('ws_acme')
    const created = await call(banner.base_url, 'POST', '/api/v1/keys', { key: KEYS.owner, body: { name: 'from-cli', scopes: ['tools:read'] } })
    expect(created.status).toBe(201)

    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
    const saved = JSON.parse(await readFile(state, 'utf8'))
    expect(saved.keys.map((k: { id: string }) => k.id)).toContain(created.body.id)
    expect(JSON.stringify(saved)).not.toContain(created.body.key)
    expect(JSON.stringify(saved.keys.find((k: { name: string }) => k.name === 'owner').last_used_at)).not.toBe('null')

    const resumed = serve(['--port', '0', '--api-port', '0', '--state', state, '--json'])
    await resumed.waitFor('\n')
    expect(JSON.parse(resumed.stdout().split('\n')[0]).resumed).toBe(true)
    resumed.child.kill('SIGTERM')
    expect(await resumed.exited).toBe(0)
  })

  it('prints a readable banner with both URLs, the state and key names, never a key value', async () => {
    const run = serve(['--port', '0', '--api-port', '0', '--state', 'memory'])
    await run.waitFor('Ctrl-C')
    const text = run.stdout()
    expect(text).toMatch(/base_url\s+http:\/\/127\.0\.0\.1:\d+/)
    expect(text).toMatch(/api_url\s+http:\/\/127\.0\.0\.1:\d+/)
    expect(text).toMatch(/state\s+memory/)
    for (const name of ['owner', 'agent', 'reviewer', 'reporting', 'signup']) expect(text).toContain(name)
    expect(text).toContain('svc_test_own…')
    for (const value of VALUES) expect(text).not.toContain(value)
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
  })

  it('refuses a non-loopback host with an open control plane: exit 2 and one clear line', async () => {
    const run = serve(['--host', '0.0.0.0', '--port', '0', '--api-port', '0', '--state', 'memory', '--open-control-plane'])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/Refusing to bind 0\.0\.0\.0 with an open control plane.*Drop --open-control-plane/)
    expect(run.stdout()).toBe('')
  })

  it('refuses --open-control-plane with --admin-token: exit 2 naming both', async () => {
    const run = serve(['--state', 'memory', '--open-control-plane', '--admin-token', 'tok'])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/--open-control-plane and --admin-token .* contradict/)
  })

  it('generates a fresh admin token per start, writes it mode 0600 next to the state file, and removes it on stop (issue 33)', async () => {
    const state = join(dir, 'state.json')
    const tokens: string[] = []
    for (let start = 0; start < 2; start++) {
      const run = serve(['--state', state, '--json'])
      const banner = await run.banner()
      const file = join(dir, 'state.admin-token')
      expect(banner).toMatchObject({ control_plane: 'token', admin_token_file: file, console_url: expect.stringContaining('/_sandbox/console/sign-in?ticket=') })
      expect((await readFile(file, 'utf8')).trim()).toBe(banner.admin_token)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      expect((await call(banner.base_url, 'GET', '/_sandbox/clock')).status).toBe(401)
      expect((await call(banner.base_url, 'GET', '/_sandbox/clock', { headers: { 'x-sandbox-admin': banner.admin_token as string } })).status).toBe(200)
      tokens.push(banner.admin_token as string)
      run.child.kill('SIGINT')
      expect(await run.exited).toBe(0)
      await expect(stat(file)).rejects.toThrow(/ENOENT/)
    }
    expect(tokens[0]).not.toBe(tokens[1])
  })

  it('prints the token and a one-time console link in the readable banner; --open-control-plane prints a warning instead', async () => {
    const closed = serve(['--state', 'memory'])
    await closed.waitFor('Ctrl-C')
    expect(closed.stdout()).toMatch(/token\s+sbx_admin_[\w-]{43}/)
    expect(closed.stdout()).toMatch(/console\s+http:\/\/127\.0\.0\.1:\d+\/_sandbox\/console\/sign-in\?ticket=/)
    expect(closed.stdout()).not.toContain('WARNING')
    const open = serve(['--state', 'memory', '--open-control-plane', '--json'])
    const banner = await open.banner()
    expect(banner).toMatchObject({ control_plane: 'open', admin_token: null, admin_token_file: null })
    expect((await call(banner.base_url, 'GET', '/_sandbox/clock')).status).toBe(200)
    const text = serve(['--state', 'memory', '--open-control-plane'])
    await text.waitFor('Ctrl-C')
    expect(text.stdout()).toMatch(/WARNING\s+--open-control-plane: anyone who can reach this port can approve held writes/)
  })

  it('takes the token from SANDBOX_ADMIN_TOKEN without writing it to disk', async () => {
    const state = join(dir, 'state.json')
    const run = spawnServe(['--state', state, '--json'], { SANDBOX_ADMIN_TOKEN: 'operator-chosen-token' })
    const banner = await run.banner()
    expect(banner).toMatchObject({ admin_token: 'operator-chosen-token', admin_token_file: null })
    await expect(stat(join(dir, 'state.admin-token'))).rejects.toThrow(/ENOENT/)
    expect((await call(banner.base_url, 'GET', '/_sandbox/clock', { headers: { 'x-sandbox-admin': 'operator-chosen-token' } })).status).toBe(200)
  })

  it.each([['--journal-max-bytes', '-5'], ['--journal-limit', '0']])('refuses %s %s with a message naming the flag', async (flag, value) => {
    const run = serve(['--port', '0', '--api-port', '0', '--state', 'memory', flag, value])
    expect(await run.exited).not.toBe(0)
    expect(run.stderr()).toContain(`option '${flag} <n>' argument '${value}' is invalid. must be a positive integer`)
    expect(run.stdout()).toBe('')
  })

  describe('with a port taken', () => {
    let blocker: Server
    beforeEach(async () => {
      blocker = createServer()
      await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done))
    })
    afterEach(() => {
      blocker.close()
    })

    it.each(['--port', '--api-port'])('exits 2 naming the port when %s is in use', async (flag) => {
      const taken = String((blocker.address() as AddressInfo).port)
      const ports = flag === '--port' ? ['--port', taken, '--api-port', '0'] : ['--port', '0', '--api-port', taken]
      const run = serve([...ports, '--state', 'memory'])
      expect(await run.exited).toBe(2)
      expect(run.stderr()).toContain(`Port ${taken} is already in use`)
      expect(run.stderr()).toContain(`${flag} 0`)
    })
  })

  it('exits 2 with file:line:column for a bad world file', async () => {
    const world = join(dir, 'broken.yaml')
    await writeFile(world, 'name: broken\nusers: []\nworkspaces: []\ncolour: blue\n')
    const run = serve(['--port', '0', '--api-port', '0', '--state', 'memory', '--world', world])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toContain(`${world}:4:1 colour: unknown key \`colour\``)
  })

  it('refuses --world X over a state file that holds another world, and starts it afresh with --reset', async () => {
    const state = join(dir, 'state.json')
    const ports = ['--port', '0', '--api-port', '0', '--state', state, '--json']
    const first = serve(ports)
    await first.waitFor('\n')
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)

    const other = serve([...ports, '--world', 'multi-workspace'])
    expect(await other.exited).toBe(2)
    expect(other.stderr().trim()).toBe(`adops-sandbox: ${state} already holds world "default"; resume it without --world, pass --reset to start world "multi-workspace" afresh (dropping that state), or use another --state file.`)

    // The same world by name resumes; --reset starts the asked-for world with fresh state.
    const same = serve([...ports, '--world', 'default'])
    await same.waitFor('\n')
    expect(JSON.parse(same.stdout().split('\n')[0])).toMatchObject({ resumed: true, world: 'default' })
    same.child.kill('SIGTERM')
    expect(await same.exited).toBe(0)
    const fresh = serve([...ports, '--world', 'multi-workspace', '--reset'])
    await fresh.waitFor('\n')
    expect(JSON.parse(fresh.stdout().split('\n')[0])).toMatchObject({ resumed: false, world: 'multi-workspace' })
    fresh.child.kill('SIGTERM')
    expect(await fresh.exited).toBe(0)
  })
})
