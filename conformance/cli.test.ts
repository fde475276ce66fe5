import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Command } from 'commander'
import { conformCommand } from '../src/cli/conform.js'
import { conformInProcess } from '../src/test-support/conform-in-process.js'
import { unknownCommandMessage } from '../src/cli/unknown-command.js'
import { createSandbox } from '../src/create-sandbox.js'
import type { RunningSandbox } from '../src/create-sandbox.js'
import { freePort } from './prism-proxy.js'
import { writeAdminTokenFile } from '../src/support/admin-token-file.js'

const conform = conformInProcess

afterEach(() => {
  process.exitCode = undefined
})

describe('adops-sandbox conform (exit codes)', { timeout: 90_000 }, () => {
  it('0 when every scenario passes; the last line is "N passed, N failed"', async () => {
    const r = await conform(['conformance/test-fixtures/pass', '--no-baseline'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n').at(-1)).toBe('2 passed, 0 failed')
    expect(r.stdout).toMatch(/^0 skipped, /m)
  })

  it('1 on a failure, with the diff of expected vs given', async () => {
    const r = await conform(['conformance/test-fixtures/fail', '--no-baseline'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/- expected 200\n\s+\+ given\s+401/)
    expect(r.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed')
  })

  it('2 on a scenario error, naming file:line:column', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conform-'))
    await writeFile(join(dir, 'X-01-bad.yaml'), 'id: x\ntitle: Bad.\nsteps:\n  - request: { path: /v1/me }\n    expct: { status: 200 }\n')
    const r = await conform([dir])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/X-01-bad\.yaml:5:5 steps\[0\]\.expct: unknown key `expct` \(hint: did you mean `expect`\?\)/)
  })

  it('2 on a usage error', async () => {
    expect((await conform(['--shard', '3/2'])).code).toBe(2)
    expect((await conform(['--base-url', 'http://127.0.0.1:9'])).code).toBe(2)
    expect((await conform(['--reporter', 'pdf'])).code).toBe(2)
  })

  it('3 when the target is unreachable', async () => {
    const r = await conform(['conformance/test-fixtures/pass', '--base-url', 'http://127.0.0.1:9', '--api-url', 'http://127.0.0.1:9', '--key', 'owner=svc_test_x'])
    expect(r.code).toBe(3)
    expect(r.stderr).toMatch(/target unreachable/)
  })

  it('4 when the coverage gate fails and nothing else did', async () => {
    const r = await conform(['conformance/test-fixtures/pass', '--coverage', '--no-baseline'])
    expect(r.code).toBe(4)
    expect(r.stdout).toMatch(/not covered: .*DISP-01/)
  })

  it('merges shard reports into one JUnit file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conform-'))
    for (const i of [1, 2]) await conform(['conformance/test-fixtures', '--shard', `${i}/2`, '--no-baseline', '--reporter', `json:${join(dir, `s${i}.json`)}`])
    const r = await conform(['merge', join(dir, 's1.json'), join(dir, 's2.json'), '--reporter', `junit:${join(dir, 'j.xml')}`])
    expect(r.code).toBe(1)
    expect(r.stdout.trim().split('\n').at(-1)).toBe('2 passed, 1 failed')
    expect((await readFile(join(dir, 'j.xml'), 'utf8')).match(/<testcase /g)).toHaveLength(3)
  })

  it('is wired into the adops-sandbox bin', async () => {
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'conform', 'conformance/test-fixtures/fail', '--no-baseline'], { timeout: 60_000 })
      .then(() => 0, (error: { code: number }) => error.code)
    expect(result).toBe(1)
  }, 60_000)
})

describe('adops-sandbox conform (honest verdicts)', { timeout: 90_000 }, () => {
  it.each([
    ['a misspelled credential', 'B-01-credential-typo.yaml', /B-01-credential-typo\.yaml:6:47 .*unknown credential `ownr` .*did you mean `owner`/],
    ['a misspelled world', 'B-02-world-typo.yaml', /B-02-world-typo\.yaml:5:8 world: unknown world `defualt` \(did you mean `default`\?\)/],
    ['an unknown covers id', 'B-03-covers-unknown.yaml', /B-03-covers-unknown\.yaml:3:10 covers\[0\]: unknown rule id `KEY-88`/],
  ])('exits 2 on %s, naming file:line:col, before any scenario runs', async (_name, file, pattern) => {
    const r = await conform([`conformance/test-fixtures/_broken/${file}`, '--no-baseline'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(pattern)
    expect(r.stdout).toBe('')
  })

  it('exits 2 on a misspelled world with --target too, without a stack trace', async () => {
    const r = await conform(['conformance/test-fixtures/_broken/B-02-world-typo.yaml', '--target', 'http://127.0.0.1:9'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/unknown world `defualt`/)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('exits 5 when no scenario ran because the filters selected none, and 0 with --allow-empty', async () => {
    const r = await conform(['conformance/test-fixtures/pass', '--no-baseline', '--grep', 'matches-nothing'])
    expect(r.code).toBe(5)
    expect(r.stdout).toMatch(/nothing ran/)
    expect((await conform(['conformance/test-fixtures/pass', '--no-baseline', '--grep', 'matches-nothing', '--allow-empty'])).code).toBe(0)
  })

  describe('against a sandbox started for the test', () => {
    let sandbox: RunningSandbox
    beforeAll(async () => {
      sandbox = await adjacentSandbox()
    })
    afterAll(() => sandbox?.close())

    it('exits 5 when every selected scenario was skipped for a capability it declares', async () => {
      const r = await conform(['conformance/test-fixtures/pass/A-03-sandbox.yaml', '--no-baseline', '--base-url', sandbox.baseUrl, '--api-url', sandbox.apiUrl, '--key', `owner=${sandbox.keys.owner}`])
      expect(r.stdout).toMatch(/fx\.sandbox .*target lacks capability control, clock/)
      expect(r.code).toBe(5)
    })

    it('warns in the banner of a --target run that the run replaces that sandbox\'s state', async () => {
      const r = await conform(['conformance/test-fixtures/pass/A-01-pass.yaml', '--no-baseline', '--target', sandbox.baseUrl, '--admin-token', sandbox.adminToken!])
      const lines = r.stdout.split('\n')
      expect(lines[0]).toMatch(/^conform: 1 scenarios against running sandbox at /)
      expect(lines[1]).toBe(`warning: scenarios that reset, script faults or read the journal reset the sandbox at ${sandbox.baseUrl} to their world, the others run in copies of their world beside it: the state it holds now (keys, campaigns, audit, journal) may be replaced`)
    })

    it('finds the admin token in the token file next to SANDBOX_STATE, and names the way out without one (issue 33)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'conform-token-'))
      vi.stubEnv('SANDBOX_STATE', join(dir, 'state.json'))
      vi.stubEnv('SANDBOX_ADMIN_TOKEN', '')
      try {
        const withoutToken = await conform(['conformance/test-fixtures/pass/A-01-pass.yaml', '--no-baseline', '--target', sandbox.baseUrl])
        expect(withoutToken.code).toBe(3)
        expect(withoutToken.stderr).toMatch(/control plane refused a call without an admin token \(401\); pass --admin-token/)
        writeAdminTokenFile(join(dir, 'state.admin-token'), sandbox.adminToken!)
        const r = await conform(['conformance/test-fixtures/pass/A-01-pass.yaml', '--no-baseline', '--target', sandbox.baseUrl])
        expect(r.code).toBe(0)
      } finally {
        vi.unstubAllEnvs()
      }
    })

    it('recognises the api host given as --target and names the base URL to use', async () => {
      const r = await conform(['conformance/test-fixtures/pass', '--target', sandbox.apiUrl, '--admin-token', sandbox.adminToken!])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`${sandbox.apiUrl} is a sandbox's api host ({api_url}), not its base URL; use its base URL: --target ${sandbox.baseUrl}`)
    })
  })
})

describe('adops-sandbox with a misspelled command', () => {
  const program = new Command('adops-sandbox').addCommand(new Command('serve'), { isDefault: true }).addCommand(new Command('mcp')).addCommand(conformCommand())
  it.each([
    [['confrom'], "unknown command 'confrom' (did you mean conform?)"],
    [['srve', '--port', '0'], "unknown command 'srve' (did you mean serve?)"],
    [['xyzzy'], "unknown command 'xyzzy'"],
  ])('%j is refused as an unknown command', (args, message) => {
    expect(unknownCommandMessage(program, args)).toMatch(new RegExp(`^${message.replace(/[()?.]/g, '\\$&')}`))
  })

  it.each([[[]], [['conform', 'scenarios']], [['--port', '0']], [['help']]])('%j is left to the command parser', (args) => {
    expect(unknownCommandMessage(program, args)).toBeNull()
  })

  it('exits 2 from the bin with the did-you-mean on stderr', async () => {
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'confrom'], { timeout: 60_000 })
      .then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("unknown command 'confrom' (did you mean conform?)")
  }, 60_000)
})

/** A sandbox whose api port is its base port + 1, as `serve` lays them out (4010, 4011). */
async function adjacentSandbox(): Promise<RunningSandbox> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort()
    try {
      return await createSandbox({ port, apiPort: port + 1 })
    } catch (error) {
      if (attempt >= 9) throw error
    }
  }
}

