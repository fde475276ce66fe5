import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { RestClient } from '../../src/client/rest-client.js'
import { createSandbox } from '../../src/create-sandbox.js'
import { runScenarios } from '../runner.js'
import { Placeholders } from './placeholders.js'
import { startRecorder } from './recorder.js'
import { writeRecording } from './write-recording.js'
import type { WrittenRecording } from './write-recording.js'

let dir: string
let files: WrittenRecording
let secrets: string[]
let requests = 0

/** Every form docs/security.md lists as masked, for each secret. */
function forms(secret: string): string[] {
  const u = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  const pct = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
  return [
    secret, secret.slice(12), encodeURIComponent(secret), secret.replaceAll('_', '%5F'), secret.replaceAll('_', '%5f'),
    [...secret].map(u).join(''), `${u(secret[0])}${secret.slice(1)}`, Buffer.from(secret).toString('base64'), [...secret].map(pct).join(''),
  ]
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'record-'))
  // The "deployment": a sandbox on a world that is not the default one.
  const target = await createSandbox({ world: 'multi-workspace' })
  const recorder = await startRecorder({ targetBase: target.baseUrl, targetApi: target.apiUrl })
  const client = new RestClient({ apiKey: target.keys.alex_client_a, baseUrl: recorder.baseUrl, apiUrl: recorder.apiUrl })
  const limited = new RestClient({ apiKey: target.keys.casey_client_a, baseUrl: recorder.baseUrl, apiUrl: recorder.apiUrl })
  const safe = (p: Promise<unknown>) => p.catch((error: unknown) => error)
  await client.getApi('/v1/me')
  await client.getApi('/v1/credits')
  await client.getApi('/v1/connections')
  const list = (await client.getApi('/v1/campaigns')) as { campaigns: Array<{ campaign_id: string; status: string }> }
  const [first, second] = list.campaigns
  for (const c of list.campaigns) await client.getApi(`/v1/campaigns/${c.campaign_id}`)
  for (const c of list.campaigns) await client.getApi(`/v1/campaigns/${c.campaign_id}/metrics`)
  await client.execute('list_campaigns', { status: 'ENABLED' }, 'google')
  await client.execute('pull_google_ads', { days: 7 }, 'google')
  await safe(client.pause(first.campaign_id, 'google'))
  await safe(client.pause(first.campaign_id, 'google'))
  await client.execute('update_campaign_budget', { campaign_id: second.campaign_id, daily_budget: 42 }, 'google')
  await client.getApi(`/v1/campaigns/${second.campaign_id}`)
  await safe(client.execute('enable_campaign', { campaign_id: first.campaign_id }, 'google'))
  await safe(client.execute('update_campaign_budget', { campaign_id: second.campaign_id, budget: 5 }, 'google'))
  await safe(limited.request('PATCH', `${recorder.apiUrl}/v1/campaigns/${second.campaign_id}/budget`, { daily_budget: 9 }))
  const created = (await client.request('POST', `${recorder.baseUrl}/api/v1/keys`, { name: 'recorded child', scopes: ['campaigns:read'] })) as { key: string; id: string }
  const child = new RestClient({ apiKey: created.key, baseUrl: recorder.baseUrl, apiUrl: recorder.apiUrl })
  await child.getApi('/v1/campaigns')
  await client.getBase('/api/v1/keys')
  await client.request('DELETE', `${recorder.baseUrl}/api/v1/keys/${created.id}`)
  await safe(child.getApi('/v1/campaigns'))
  await client.getBase('/api/v1/landing-pages')
  await client.getBase('/api/v1/tools?q=budget')
  await client.getApi('/v1/credits')
  for (const days of [1, 7, 30]) await client.execute('pull_google_ads', { days }, 'google')
  for (const c of list.campaigns.slice(0, 4)) await client.execute('list_campaigns', { status: c.status }, 'google')
  await safe(new RestClient({ apiKey: '', baseUrl: recorder.baseUrl, apiUrl: recorder.apiUrl }).getApi('/v1/me'))
  // Hosted MCP through the recorder, with the key in X-Service-Key.
  const mcp = new Client({ name: 'recorded', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${recorder.baseUrl}/mcp`), { requestInit: { headers: { 'x-service-key': target.keys.alex_client_a } } }))
  await mcp.listTools()
  await mcp.callTool({ name: 'list_campaigns', arguments: { platform: 'google' } })
  await mcp.close()
  requests = recorder.exchanges.length
  const placeholders = new Placeholders()
  for (const exchange of recorder.exchanges) placeholders.credentialOf(exchange)
  secrets = [...placeholders.values(), created.key]
  files = await writeRecording(recorder.exchanges, { out: dir, target: 'the test deployment', placeholders })
  await recorder.close()
  // The network to the target is closed before the replay.
  await target.close()
}, 120_000)

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('adops-sandbox record (issue 38)', () => {
  it('recorded a session of about 50 requests over both hosts and MCP', () => {
    expect(requests).toBeGreaterThanOrEqual(45)
  })

  it('writes a world the sandbox loads, with the campaigns as the client first saw them', async () => {
    const world = parse(await readFile(files.world, 'utf8')) as { keys: Array<{ name: string; scopes: string[] }>; connections: Array<{ campaigns: { items: unknown[] } }> }
    expect(world.keys.map((k) => k.name)).toEqual(['alex_client_a', 'recorded_2'])
    expect(world.connections[0].campaigns.items.length).toBeGreaterThanOrEqual(4)
    const sandbox = await createSandbox({ world: files.world })
    expect(Object.keys(sandbox.keys)).toEqual(['alex_client_a', 'recorded_2'])
    await sandbox.close()
  })

  it('writes a scenario that passes against a fresh sandbox on the recorded world', async () => {
    const run = await runScenarios({ paths: [files.scenario], baseline: null })
    const [result] = run.scenarios
    expect(result.reason ?? '').toBe('')
    expect(result.outcome).toBe('passed')
    expect(result.steps.length).toBe(requests)
  }, 60_000)

  it('writes the MCP catalog the client listed', async () => {
    const catalog = JSON.parse(await readFile(files.catalog!, 'utf8')) as { tools: Array<{ name: string }> }
    expect(catalog.tools.map((t) => t.name)).toContain('list_campaigns')
  })

  it('leaves no secret in any file, in any masked form', async () => {
    const texts = await Promise.all((await readdir(dir)).map((f) => readFile(join(dir, f), 'utf8')))
    expect(secrets.length).toBeGreaterThanOrEqual(3)
    for (const secret of secrets) for (const form of forms(secret)) for (const text of texts) expect(text.includes(form), `a form of ${secret.slice(0, 12)}…`).toBe(false)
  })
})
