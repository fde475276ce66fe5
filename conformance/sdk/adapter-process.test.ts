import { spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runScenarios } from '../runner.js'
import { makeTarget } from '../targets.js'
import { AdapterError, ProtocolError, SdkAdapter } from './adapter-process.js'
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

/** An adapter that answers every op but `version` with the raw line in SCRIPTED (`ID` → the request id). */
const SCRIPTED = `
import { createInterface } from 'node:readline'
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, op } = JSON.parse(line)
  if (op === 'version' || op === 'configure') return process.stdout.write(JSON.stringify({ id, ok: true, value: { name: 'scripted', version: '1' } }) + '\\n')
  for (const raw of JSON.parse(process.env.SCRIPTED)) process.stdout.write(raw.replaceAll('ID', String(id)) + '\\n')
})`

async function scripted(lines: string[]): Promise<SdkAdapter> {
  const file = join(dir, 'scripted.mjs')
  await writeFile(file, SCRIPTED)
  return SdkAdapter.start(`SCRIPTED='${JSON.stringify(lines)}' node ${file}`)
}

describe('the adapter protocol', () => {
  it('takes null for the optional fields of an error (Python None) as absent, at once', async () => {
    const adapter = await scripted(['{"id": ID, "ok": false, "error": {"kind": "http", "status": 400, "code": null, "message": null}}'])
    try {
      const answer = await adapter.call('execute', {}, 120_000)
      expect(answer).toEqual({ id: 2, ok: false, error: { kind: 'http', status: 400 } })
    } finally {
      await adapter.close()
    }
  })

  it.each([
    ['{"id": ID, "ok": false, "error": {"kind": "boom"}}', 'error.kind'],
    ['{"id": ID, "ok": false}', 'error'],
    ['{"id": ID, "ok": "yes", "value": 1}', 'ok'],
    ['{"id": ID, "ok": false, "error": {"kind": "http", "status": "400"}}', 'error.status'],
    ['{"id": ID, "ok": false, "error": {"kind": "http", "code": 17}}', 'error.code'],
  ])('fails a pending call at once when its answer %s does not validate, naming %s', async (line, field) => {
    const adapter = await scripted([line])
    try {
      const error = await adapter.call('execute', {}, 120_000).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ProtocolError)
      expect((error as Error).message).toMatch(new RegExp(`answer to \`execute\` \\(id 2\\) breaks the adapter protocol: ${field.replace('.', '\\.')}: `))
    } finally {
      await adapter.close()
    }
  })

  it('treats a JSON line without a pending id as a log line and keeps waiting for the answer', async () => {
    const adapter = await scripted(['{"level": "debug", "msg": "calling the SDK"}', '{"id": ID, "ok": true, "value": {"done": true}}'])
    try {
      await expect(adapter.call('execute', {}, 120_000)).resolves.toEqual({ id: 2, ok: true, value: { done: true } })
      expect(adapter.log()).toContain('stdout (not an answer): {"level": "debug", "msg": "calling the SDK"}')
    } finally {
      await adapter.close()
    }
  })

  it('fails the sdk step with the protocol error instead of waiting for the step timeout', async () => {
    const adapter = await scripted(['{"id": ID, "ok": false, "error": {"kind": "timeout ", "code": null}}'])
    try {
      const run = await runScenarios({ paths: ['scenarios/sdk/SDK-06-date-range-days.yaml'], contract: 'off', baseline: null, target: withSdk(makeTarget(), adapter) })
      const [result] = run.scenarios
      expect(result.outcome).toBe('failed')
      expect(result.reason).toMatch(/ProtocolError: the answer to `performance` \(id \d+\) breaks the adapter protocol: error\.kind: /)
      // The reason above is the protocol error, not the step timeout: no wall-clock assert needed to tell them apart.
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
