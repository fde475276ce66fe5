import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../create-sandbox.js'
import type { RunningSandbox } from '../create-sandbox.js'
import type { RecordFlags } from './record.js'
import { runRecordCli } from './record-run.js'

/** `record` run in-process: its output, its banner line, a stop (what SIGINT does in the CLI) and its exit code. */
function startCli(flags: Partial<RecordFlags>, options: { tty?: boolean } = {}) {
  let out = ''
  let err = ''
  let stop!: () => void
  let bannerSeen!: (line: string) => void
  const banner = new Promise<string>((resolve) => (bannerSeen = resolve))
  const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done() } })
  const stdout = sink((s) => {
    out += s
    if (out.includes('\n')) bannerSeen(out)
  })
  const code = runRecordCli({ host: '127.0.0.1', port: 0, apiPort: 0, out: 'recording', ...flags }, {
    stop: new Promise<void>((resolve) => (stop = resolve)), stdout, stderr: Object.assign(sink((s) => (err += s)), { isTTY: options.tty === true }),
  })
  void code.then(() => bannerSeen(out))
  return { banner, stop: () => stop(), code, out: () => out, err: () => err }
}

let dir: string
let target: RunningSandbox
let closed: { baseUrl: string; apiUrl: string }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'record-cli-'))
  target = await createSandbox()
  const gone = await createSandbox()
  closed = { baseUrl: gone.baseUrl, apiUrl: gone.apiUrl }
  await gone.close()
})

afterAll(async () => {
  await target.close()
  await rm(dir, { recursive: true, force: true })
})

describe('adops-sandbox record (CLI, issue 38)', () => {
  it.each([
    ['no target', {}, 'record needs --target-base URL and --target-api URL'],
    ['half a target', { targetBase: 'http://127.0.0.1:1' }, 'record needs --target-base URL and --target-api URL'],
    ['a target that is not a URL', { targetBase: 'localhost:4010', targetApi: 'http://127.0.0.1:1' }, '--target-base takes an http(s) URL'],
    ['an unknown reporter', { targetBase: 'http://127.0.0.1:1', targetApi: 'http://127.0.0.1:1', reporter: ['xml'] }, 'unknown reporter'],
    ['--reporter with --replay', { replay: 'x', reporter: ['json'] }, '--reporter checks a new recording'],
    ['--capture-on-miss without a target', { replay: 'x', captureOnMiss: true }, '--capture-on-miss needs --target-base'],
    ['a target without --capture-on-miss', { replay: 'x', targetBase: 'http://a', targetApi: 'http://b' }, 'forwards nothing without --capture-on-miss'],
    ['--replay of a folder without a recording', { replay: '/nonexistent-recording' }, 'does not exist: record a session first'],
  ])('exits 2 on %s, saying what is wrong', async (_name, flags, message) => {
    const run = startCli(flags)
    expect(await run.code).toBe(2)
    expect(run.err()).toContain(message)
  })

  it('exits 3 when the target does not answer at start, naming the URL', async () => {
    const run = startCli({ targetBase: closed.baseUrl, targetApi: closed.apiUrl })
    expect(await run.code).toBe(3)
    expect(run.err()).toContain(`target unreachable: ${closed.baseUrl}`)
  })

  it('prints a JSON banner, forwards until stopped, then writes the files, says which, and checks the session with --reporter', async () => {
    const out = join(dir, 'json')
    const junit = join(dir, 'report', 'junit.xml')
    const run = startCli({ targetBase: target.baseUrl, targetApi: target.apiUrl, out, json: true, reporter: [`junit:${junit}`] })
    const banner = JSON.parse((await run.banner).split('\n')[0]) as Record<string, string>
    expect(banner).toMatchObject({ mode: 'record', out, target_base: target.baseUrl, target_api: target.apiUrl, mcp: `${banner.base_url}/mcp` })
    const headers = { authorization: `Bearer ${target.keys.owner}` }
    expect((await fetch(`${banner.api_url}/v1/campaigns`, { headers })).status).toBe(200)
    expect((await fetch(`${banner.base_url}/api/v1/tools?q=budget`, { headers })).status).toBe(200)
    expect((await fetch(`${banner.api_url}/v1/me`)).status).toBe(401)
    run.stop()
    expect(await run.code).toBe(0)
    const written = JSON.parse(run.out().trim().split('\n').at(-1)!) as { requests: number; files: Record<string, string | null>; check: { passed: boolean } }
    expect(written).toMatchObject({ requests: 3, files: { world: join(out, 'world.yaml'), scenario: join(out, 'session.yaml'), catalog: null, recording: join(out, 'recording.json') }, check: { passed: true } })
    expect((await readdir(out)).sort()).toEqual(['recording.json', 'session.yaml', 'world.yaml'])
    const report = await readFile(junit, 'utf8')
    expect(report).toContain('<testsuite')
    for (const text of [report, run.out(), run.err(), ...await Promise.all((await readdir(out)).map((f) => readFile(join(out, f), 'utf8')))]) {
      expect(text).not.toContain(target.keys.owner)
      expect(text).not.toContain(target.keys.owner.slice(12))
    }
  }, 60_000)

  it('prints a human banner like serve\'s and one line per file written', async () => {
    const out = join(dir, 'human')
    const run = startCli({ targetBase: target.baseUrl, targetApi: target.apiUrl, out })
    const banner = await run.banner
    for (const label of ['base_url', 'api_url', 'mcp', 'out']) expect(banner).toMatch(new RegExp(`^  ${label} +\\S+`, 'm'))
    const apiUrl = /api_url +(\S+)/.exec(banner)![1]
    await fetch(`${apiUrl}/v1/credits`, { headers: { authorization: `Bearer ${target.keys.owner}` } })
    run.stop()
    expect(await run.code).toBe(0)
    const wrote = run.out().split('\n').filter((l) => l.startsWith('wrote '))
    expect(wrote.map((l) => l.split(/\s+/)[1])).toEqual([join(out, 'world.yaml'), join(out, 'session.yaml'), join(out, 'recording.json')])
  })

  it('writes nothing when nothing was recorded, and says so', async () => {
    const out = join(dir, 'empty')
    const run = startCli({ targetBase: target.baseUrl, targetApi: target.apiUrl, out })
    await run.banner
    run.stop()
    expect(await run.code).toBe(0)
    expect(run.out()).toContain('no request was recorded; nothing written')
    await expect(readdir(out)).rejects.toThrow()
  })

  it('exits 1 when the recorded session does not replay on the recorded world (a target the sandbox cannot imitate)', async () => {
    // Answers every request 200 with a field no sandbox answer has.
    const odd = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"greeting":"hello from elsewhere"}'))
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`
    const run = startCli({ targetBase: url, targetApi: url, out: join(dir, 'odd'), reporter: [`json:${join(dir, 'odd-report.json')}`] })
    const apiUrl = /api_url +(\S+)/.exec(await run.banner)![1]
    await fetch(`${apiUrl}/v1/credits`, { headers: { authorization: 'Bearer svc_test_someKeyOfTheOddTarget00000000000' } })
    run.stop()
    expect(await run.code).toBe(1)
    expect(run.out()).toContain('check: the session does not replay on the recorded world')
    const report = JSON.parse(await readFile(join(dir, 'odd-report.json'), 'utf8')) as { summary: { failed: number } }
    expect(report.summary.failed).toBe(1)
    odd.closeAllConnections()
    await new Promise((resolve) => odd.close(resolve))
  }, 60_000)

  it('replays a recording it wrote: the recorded answer, then 404 NOT_RECORDED for a miss, and a count on stop', async () => {
    const out = join(dir, 'human')
    const run = startCli({ replay: out, json: true })
    const banner = JSON.parse((await run.banner).split('\n')[0]) as Record<string, string | number>
    expect(banner).toMatchObject({ mode: 'replay', recording: out, exchanges: 1, capture_on_miss: false })
    const headers = { authorization: 'Bearer svc_test_anyKeyOfTheReplayingClient000000' }
    expect((await fetch(`${banner.api_url}/v1/credits`, { headers })).status).toBe(200)
    const miss = await fetch(`${banner.api_url}/v1/me`, { headers })
    expect([miss.status, ((await miss.json()) as { code: string }).code]).toEqual([404, 'NOT_RECORDED'])
    run.stop()
    expect(await run.code).toBe(0)
    expect(JSON.parse(run.out().trim().split('\n').at(-1)!)).toEqual({ replayed: 1, missed: 1, captured: 0, files: null })
  })

  it('shows the count of requests recorded so far on a TTY, and nothing of it otherwise', async () => {
    const headers = { authorization: `Bearer ${target.keys.owner}` }
    for (const tty of [true, false]) {
      const run = startCli({ targetBase: target.baseUrl, targetApi: target.apiUrl, out: join(dir, `tty-${tty}`) }, { tty })
      const apiUrl = /api_url +(\S+)/.exec(await run.banner)![1]
      for (let i = 0; i < 2; i++) await fetch(`${apiUrl}/v1/credits`, { headers }).then((r) => r.text())
      run.stop()
      expect(await run.code).toBe(0)
      expect(run.err().includes('\rrecord: 2 requests recorded')).toBe(tty)
    }
  })

  it('never prints or writes credentials given in a target URL (user:password@host)', async () => {
    const out = join(dir, 'userinfo')
    const withCredentials = (url: string) => url.replace('http://', 'http://operator:pw-in-the-url@')
    const run = startCli({ targetBase: withCredentials(target.baseUrl), targetApi: withCredentials(target.apiUrl), out, json: true })
    const banner = JSON.parse((await run.banner).split('\n')[0]) as Record<string, string>
    expect(banner.target_base).toBe(target.baseUrl)
    expect((await fetch(`${banner.api_url}/v1/credits`, { headers: { authorization: `Bearer ${target.keys.owner}` } })).status).toBe(200)
    run.stop()
    expect(await run.code).toBe(0)
    const texts = [run.out(), run.err(), ...await Promise.all((await readdir(out)).map((f) => readFile(join(out, f), 'utf8')))]
    for (const text of texts) expect(text).not.toContain('pw-in-the-url')
  })

  it('keeps at most --max-exchanges, still forwards the requests after it, and says how many were not recorded', async () => {
    const run = startCli({ targetBase: target.baseUrl, targetApi: target.apiUrl, out: join(dir, 'bounded'), json: true, maxExchanges: 2 })
    const banner = JSON.parse((await run.banner).split('\n')[0]) as Record<string, string>
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${banner.api_url}/v1/credits`, { headers: { authorization: `Bearer ${target.keys.owner}` } })).status)
    expect(statuses).toEqual([200, 200, 200, 200])
    run.stop()
    expect(await run.code).toBe(0)
    expect(run.err()).toContain('record: 2 exchanges kept, the limit')
    expect(JSON.parse(run.out().trim().split('\n').at(-1)!)).toMatchObject({ requests: 2, not_recorded: 2 })
  })

  it('with --capture-on-miss forwards a miss, then rewrites recording.json on stop with it appended and no key in it', async () => {
    const out = join(dir, 'capture')
    const first = startCli({ targetBase: target.baseUrl, targetApi: target.apiUrl, out, json: true })
    const recorded = JSON.parse((await first.banner).split('\n')[0]) as Record<string, string>
    const headers = { authorization: `Bearer ${target.keys.owner}` }
    await fetch(`${recorded.api_url}/v1/credits`, { headers }).then((r) => r.text())
    first.stop()
    expect(await first.code).toBe(0)
    const run = startCli({ replay: out, captureOnMiss: true, targetBase: target.baseUrl, targetApi: target.apiUrl })
    const apiUrl = /api_url +(\S+)/.exec(await run.banner)![1]
    expect((await fetch(`${apiUrl}/v1/me`, { headers })).status).toBe(200)
    expect((await fetch(`${apiUrl}/v1/credits`, { headers })).status).toBe(200)
    run.stop()
    expect(await run.code).toBe(0)
    expect(run.out()).toContain('1 answered from the recording, 0 not recorded, 1 captured')
    expect(run.out()).toContain(`wrote ${join(out, 'recording.json')}`)
    const text = await readFile(join(out, 'recording.json'), 'utf8')
    const file = JSON.parse(text) as { exchanges: Array<{ path: string; credential: { name: string } }> }
    expect(file.exchanges.map((x) => x.path)).toEqual(['/v1/credits', '/v1/me'])
    expect(file.exchanges[1].credential.name).toBe('recorded_2')
    for (const form of [target.keys.owner, target.keys.owner.slice(12), encodeURIComponent(target.keys.owner)]) expect(text).not.toContain(form)
  })
})
