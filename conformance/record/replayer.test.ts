import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/create-sandbox.js'
import type { RunningSandbox } from '../../src/create-sandbox.js'
import { Placeholders } from './placeholders.js'
import { startRecorder } from './recorder.js'
import { maskSecretFields, matchKey, readRecordingFile, recordingText } from './recording-file.js'
import type { RecordingFile } from './recording-file.js'
import { startReplayer } from './replayer.js'
import type { Replayer } from './replayer.js'
import { writeRecording } from './write-recording.js'

let dir: string
let recording: RecordingFile
let secrets: string[]
let campaign: string
/** The three answers the same read got while recording, in order. */
const reads: unknown[] = []
const replayers: Replayer[] = []

async function call(url: string, init: { method?: string; key?: string | null; json?: unknown } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = init.key === null ? {} : { authorization: `Bearer ${init.key ?? 'svc_test_anyKeyAtAllWillDo00000000000000'}` }
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function replay(options: Partial<Parameters<typeof startReplayer>[0]> = {}): Promise<Replayer> {
  const replayer = await startReplayer({ recording, ...options })
  replayers.push(replayer)
  return replayer
}

/** Every masked form of a secret a file must not hold (as record.test.ts checks). */
function forms(secret: string): string[] {
  const u = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  return [secret, secret.slice(12), encodeURIComponent(secret), secret.replaceAll('_', '%5F'), [...secret].map(u).join(''), Buffer.from(secret).toString('base64')]
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replay-'))
  const target = await createSandbox()
  const key = target.keys.owner
  const recorder = await startRecorder({ targetBase: target.baseUrl, targetApi: target.apiUrl })
  const list = await call(`${recorder.apiUrl}/v1/campaigns`, { key })
  campaign = (list.body.campaigns as Array<{ campaign_id: string; status: string }>).find((c) => c.status === 'ENABLED')!.campaign_id
  // The same read three times around two changes: three different answers, in this order.
  const read = async () => reads.push((await call(`${recorder.apiUrl}/v1/campaigns/${campaign}`, { key })).body)
  await read()
  await call(`${recorder.apiUrl}/v1/campaigns/${campaign}/pause`, { method: 'POST', key })
  await read()
  await call(`${recorder.apiUrl}/v1/campaigns/${campaign}/budget`, { method: 'PATCH', key, json: { daily_budget: 77 } })
  await read()
  await call(`${recorder.apiUrl}/v1/me`, { key: null })
  const mcp = new Client({ name: 'replayed', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${recorder.baseUrl}/mcp`), { requestInit: { headers: { 'x-service-key': key } } }))
  await mcp.listTools()
  await mcp.close()
  const placeholders = new Placeholders()
  for (const exchange of recorder.exchanges) placeholders.credentialOf(exchange)
  secrets = placeholders.values()
  await writeRecording(recorder.exchanges, { out: dir, target: 'the test deployment', placeholders })
  await recorder.close()
  await target.close()
  recording = await readRecordingFile(dir)
}, 60_000)

afterAll(async () => {
  await Promise.all(replayers.map((r) => r.close()))
  await rm(dir, { recursive: true, force: true })
})

describe('record --replay (issue 38)', () => {
  it('answers the n-th identical read with the n-th recorded answer, then repeats the last', async () => {
    const { apiUrl } = await replay()
    expect(new Set(reads.map((r) => JSON.stringify(r))).size).toBe(3)
    const replayed = []
    for (let i = 0; i < 4; i++) replayed.push((await call(`${apiUrl}/v1/campaigns/${campaign}`)).body)
    expect(replayed).toEqual([...reads, reads[2]])
  })

  it('keeps a separate order per request: a write in between does not move the reads on', async () => {
    const { apiUrl } = await replay()
    expect((await call(`${apiUrl}/v1/campaigns/${campaign}/budget`, { method: 'PATCH', json: { daily_budget: 77 } })).status).toBeLessThan(300)
    expect((await call(`${apiUrl}/v1/campaigns/${campaign}`)).body).toEqual(reads[0])
  })

  it('matches any key of the recorded header kind, and a request without one only to one recorded without one', async () => {
    const { apiUrl } = await replay()
    expect((await call(`${apiUrl}/v1/me`, { key: null })).status).toBe(401)
    const withKey = await call(`${apiUrl}/v1/me`)
    expect(withKey).toMatchObject({ status: 404, body: { code: 'NOT_RECORDED' } })
  })

  it.each([
    ['a path the recording lacks', '/v1/campaigns/cmp_never_seen', {}],
    ['another body', `/v1/campaigns/{id}/budget`, { method: 'PATCH', json: { daily_budget: 78 } }],
    ['another query', '/v1/campaigns?status=PAUSED', {}],
  ])('answers %s with 404 NOT_RECORDED and a hint, never a 5xx', async (_name, path, init) => {
    const { apiUrl } = await replay()
    const answer = await call(`${apiUrl}${path.replace('{id}', campaign)}`, init)
    expect(answer.status).toBe(404)
    expect(answer.body).toMatchObject({ code: 'NOT_RECORDED' })
    expect(String(answer.body.hint)).toContain('--capture-on-miss')
  })

  it('serves a recorded MCP session to a real MCP client (JSON-RPC ids are the client\'s)', async () => {
    const { baseUrl } = await replay()
    // The same client as recorded: `initialize` names it, and its body is matched like any other.
    const mcp = new Client({ name: 'replayed', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { 'x-service-key': 'svc_test_notTheRecordedKeyAtAll0000000000' } } }))
    const tools = await mcp.listTools()
    expect(tools.tools.map((t) => t.name)).toContain('list_campaigns')
    await mcp.close()
  })

  describe('--capture-on-miss', () => {
    let target: RunningSandbox
    beforeAll(async () => {
      target = await createSandbox()
    })
    afterAll(async () => {
      await target.close()
    })

    it('forwards a miss once, appends it, and replays it from then on without the target', async () => {
      const key = target.keys.owner
      const replayer = await replay({ capture: { targetBase: target.baseUrl, targetApi: target.apiUrl } })
      const first = await call(`${replayer.apiUrl}/v1/credits`, { key })
      expect(first.status).toBe(200)
      // Recorded answers are still served from the recording, not forwarded.
      expect((await call(`${replayer.apiUrl}/v1/campaigns/${campaign}`, { key })).body).toEqual(reads[0])
      expect(replayer.counts).toEqual({ replayed: 1, missed: 0, captured: 1 })
      const written = replayer.recording()
      expect(written.exchanges.length).toBe(recording.exchanges.length + 1)
      expect(written.exchanges.at(-1)).toMatchObject({ host: 'api', method: 'GET', path: '/v1/credits', status: 200, credential: { header: 'bearer' } })
      // The appended exchange answers on its own: a replay of the rewritten recording, no target behind it.
      const again = await replay({ recording: written })
      expect(await call(`${again.apiUrl}/v1/credits`)).toEqual(first)
      const text = recordingText(written)
      for (const secret of [...secrets, key]) for (const form of forms(secret)) expect(text.includes(form), `a form of ${secret.slice(0, 12)}…`).toBe(false)
    })

    it('answers 502 TARGET_UNREACHABLE when the target of a miss does not answer, and appends nothing', async () => {
      const closed = await createSandbox()
      const { baseUrl, apiUrl } = closed
      await closed.close()
      const replayer = await replay({ capture: { targetBase: baseUrl, targetApi: apiUrl } })
      const answer = await call(`${replayer.apiUrl}/v1/credits`)
      expect(answer).toMatchObject({ status: 502, body: { code: 'TARGET_UNREACHABLE' } })
      expect(replayer.recording().exchanges.length).toBe(recording.exchanges.length)
    })
  })

  it('writes a recording.json with placeholders and no secret in any form', async () => {
    const text = await readFile(join(dir, 'recording.json'), 'utf8')
    expect(recording.exchanges.some((x) => x.credential?.name === 'recorded_1')).toBe(true)
    expect(secrets.length).toBeGreaterThanOrEqual(1)
    for (const secret of secrets) for (const form of forms(secret)) expect(text.includes(form)).toBe(false)
  })
})

describe('secret-named fields in recording.json (a real deployment\'s tokens need not look like keys)', () => {
  it.each([
    ['a JSON body', '{"grant_type":"refresh_token","refresh_token":"opaque-1234","client_secret":"s3cr3t","scope":"x"}', ['opaque-1234', 's3cr3t'], 'refresh_token'],
    ['a form body', 'grant_type=authorization_code&code=abc123&code_verifier=verif-xyz&client_id=c1', ['abc123', 'verif-xyz'], 'client_id=c1'],
    ['a query', '?code=abc123&state=s1', ['abc123'], 'state=s1'],
  ])('masks them in %s and leaves the rest', (_name, text, secretValues, kept) => {
    const masked = maskSecretFields(text)
    for (const value of secretValues) expect(masked).not.toContain(value)
    expect(masked).toContain(kept)
  })

  it('leaves an answer\'s error code alone and masks its tokens', () => {
    const masked = maskSecretFields('{"code":"NOT_FOUND","access_token":"tok-9","token_type":"Bearer"}', /^(key|api_key|password|client_secret|secret)$|token$/i)
    expect(JSON.parse(masked)).toEqual({ code: 'NOT_FOUND', access_token: '[masked]', token_type: 'Bearer' })
  })

  it('matches a replayed request whose secret fields differ from the recorded ones', () => {
    const at = (body: string) => matchKey({ host: 'base', method: 'POST', path: '/oauth/token', search: '', body, credential: 'none' })
    expect(at(maskSecretFields('{"code":"first","client_id":"c"}'))).toBe(at('{"client_id":"c","code":"second"}'))
    expect(at('{"client_id":"c","code":"x"}')).not.toBe(at('{"client_id":"d","code":"x"}'))
  })
})

describe('bodies past the proxy limit', () => {
  it('are answered 413 PAYLOAD_TOO_LARGE by the recorder and by the replay, never buffered whole or forwarded', async () => {
    const { MAX_BODY_BYTES } = await import('./recorder.js')
    const recorder = await startRecorder({ targetBase: 'http://127.0.0.1:9', targetApi: 'http://127.0.0.1:9' })
    const replayer = await replay()
    try {
      for (const url of [recorder.apiUrl, replayer.apiUrl]) {
        const res = await fetch(`${url}/v1/campaigns`, { method: 'POST', body: Buffer.alloc(MAX_BODY_BYTES + 1, 'a') })
        expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
      }
      expect(recorder.exchanges.length).toBe(0)
    } finally {
      await recorder.close()
    }
  })
})
