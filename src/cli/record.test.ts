import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../create-sandbox.js'
import type { RunningSandbox } from '../create-sandbox.js'

const ROOT = resolve(import.meta.dirname, '../..')

/** `adops-sandbox record …` as a process: its first stdout line, a signal, its exit code and output. */
function spawnRecord(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'record', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr.on('data', (c) => (err += c))
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  const firstLine = new Promise<string>((ok, fail) => {
    child.stdout.on('data', (c) => {
      out += c
      if (out.includes('\n')) ok(out.slice(0, out.indexOf('\n')))
    })
    void exited.then((code) => fail(new Error(`record exited (${code}) before its banner: ${err}`)))
  })
  // A process that exits before its banner (the exit-code cases) is no unhandled rejection.
  firstLine.catch(() => undefined)
  return { child, firstLine, exited, out: () => out, err: () => err }
}

let dir: string
let target: RunningSandbox
/** A port nothing listens on any more. */
let closed: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'record-spawn-'))
  target = await createSandbox()
  const gone = await createSandbox()
  closed = gone.baseUrl
  await gone.close()
})

afterAll(async () => {
  await target.close()
  await rm(dir, { recursive: true, force: true })
})

describe('adops-sandbox record as a process (issue 38)', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('on %s writes the recording, prints what it wrote and exits 0', async (signal) => {
    const out = join(dir, signal)
    const run = spawnRecord(['--target-base', target.baseUrl, '--target-api', target.apiUrl, '--port', '0', '--api-port', '0', '--out', out, '--json'])
    const banner = JSON.parse(await run.firstLine) as { api_url: string }
    expect((await fetch(`${banner.api_url}/v1/campaigns`, { headers: { authorization: `Bearer ${target.keys.owner}` } })).status).toBe(200)
    run.child.kill(signal)
    expect(await run.exited).toBe(0)
    const written = JSON.parse(run.out().trim().split('\n').at(-1)!) as { requests: number; files: Record<string, string> }
    expect(written).toMatchObject({ requests: 1, files: { world: join(out, 'world.yaml') } })
    expect((await readdir(out)).sort()).toEqual(['recording.json', 'session.yaml', 'world.yaml'])
  }, 60_000)

  it.each([
    ['a port that is not one', ['--target-base', 'http://127.0.0.1:1', '--target-api', 'http://127.0.0.1:1', '--port', 'x'], 2],
    ['a target that does not answer', ['--target-base', 'CLOSED', '--target-api', 'CLOSED'], 3],
  ])('exits with conform\'s code on %s', async (_name, args, code) => {
    const run = spawnRecord((args as string[]).map((a) => (a === 'CLOSED' ? closed : a)))
    expect(await run.exited).toBe(code)
    expect(run.err()).not.toBe('')
  }, 60_000)
})
