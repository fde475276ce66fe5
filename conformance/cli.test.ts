import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { conformCommand } from '../src/cli/conform.js'

/** Runs `conform …` in-process and returns its exit code and output. */
async function conform(args: string[]) {
  let stdout = ''
  let stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    process.exitCode = undefined
    await conformCommand().exitOverride().parseAsync(args, { from: 'user' })
    return { code: Number(process.exitCode ?? 0), stdout, stderr }
  } finally {
    vi.restoreAllMocks()
    process.exitCode = undefined
  }
}

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
    expect(r.stdout).toMatch(/no scenario covers .*DISP-01/)
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
