import { spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runScenarios } from '../runner.js'
import { makeTarget } from '../targets.js'
import { AdapterError, SdkAdapter } from './adapter-process.js'
import { withSdk } from './sdk-target.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sdk-adapter-'))
})

/** A minimal adapter in plain JavaScript that knows only `version` and `configure`. */
const MINIMAL = `
import { createInterface } from 'node:readline'
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, op } = JSON.parse(line)
  const answer = op === 'version' ? { id, ok: true, value: { name: 'minimal', version: '0.0.1' } }
    : op === 'configure' ? { id, ok: true, value: {} }
    : { id, ok: false, error: { kind: 'unsupported', message: op + ' is not in this SDK' } }
  process.stdout.write(JSON.stringify(answer) + '\\n')
})`

describe('the adapter process', () => {
  it('learns the SDK name and version from the version op', async () => {
    const file = join(dir, 'minimal.mjs')
    await writeFile(file, MINIMAL)
    const adapter = await SdkAdapter.start(`node ${file}`)
    expect(adapter.identity).toBe('minimal@0.0.1')
    await expect(adapter.call('pause', {}, 5000)).resolves.toMatchObject({ ok: false, error: { kind: 'unsupported' } })
    await adapter.close()
  })

  it('reports an adapter that dies at start with its stderr', async () => {
    const file = join(dir, 'dies.mjs')
    await writeFile(file, `console.error('cannot import the SDK'); process.exit(3)`)
    const error = await SdkAdapter.start(`node ${file}`).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AdapterError)
    expect((error as Error).message).toMatch(/exited \(code 3\).*cannot import the SDK/)
  })

  it('skips the steps of an op the SDK does not support, with the reason, and never fails them', async () => {
    const file = join(dir, 'minimal.mjs')
    await writeFile(file, MINIMAL)
    const adapter = await SdkAdapter.start(`node ${file}`)
    try {
      const run = await runScenarios({ paths: ['scenarios/sdk/SDK-06-date-range-days.yaml'], contract: 'off', baseline: null, target: withSdk(makeTarget(), adapter) })
      const [result] = run.scenarios
      expect(result.outcome).toBe('skipped')
      expect(result.steps[0]).toMatchObject({ outcome: 'skipped', reason: expect.stringContaining('performance is not in this SDK') })
      expect(run.summary.failed).toBe(0)
    } finally {
      await adapter.close()
    }
  })
})

describe('adops-sandbox conform --sdk', () => {
  it('runs sdk scenarios through the reference adapter and exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'conform', '--sdk', 'node --import tsx conformance/adapters/reference.ts', '--tags', 'sdk', '--grep', 'execute-flags|held-write', '--contract', 'off'])
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    const code = await new Promise((resolve) => child.on('exit', resolve))
    expect(out).toContain('SDK adops-reference@0.2.0')
    expect(out).toMatch(/2 passed, 0 failed/)
    expect(code).toBe(0)
  }, 60_000)

  it('exits 3 when the adapter cannot start', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'conform', '--sdk', 'node -e "process.exit(1)"', '--tags', 'sdk', '--contract', 'off'])
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const code = await new Promise((resolve) => child.on('exit', resolve))
    expect(err).toMatch(/conform: SDK adapter: the SDK adapter exited/)
    expect(code).toBe(3)
  }, 60_000)
})
