import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import { authenticate, authorize } from '../domain/access.js'
import { createMcpServer } from './server.js'
import { inProcessBackend } from './in-process-backend.js'
import { WORLD_KEYS, call, listAllTools } from './mcp-test-support.js'

const HASH = (c: string) => c.repeat(64)
let dir: string
let world: string
let sb: Sandbox
let client: Client
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'real-args-'))
  world = join(dir, 'two-accounts.yaml')
  // A second Google Ads account in the default workspace (the world's last key is its connections list).
  await writeFile(world, `${await readFile('fixtures/worlds/default.yaml', 'utf8')}
  - { id: conn_google_acme_eu, workspace: ws_acme, platform: google, account_id: '987-654-3210', account_name: Acme EU, currency: EUR, campaigns: { count: 3 } }
`)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})
beforeEach(async () => {
  sb = await buildSandbox({ world })
  const actor = () => authorize(sb.ctx.deps, authenticate(sb.ctx.deps, WORLD_KEYS.agent), null)
  const server = createMcpServer({ backend: inProcessBackend({ ctx: sb.ctx, actor }) })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  client = new Client({ name: 'real-client', version: '0' })
  await client.connect(clientSide)
})
afterEach(async () => {
  await client.close()
  await sb.close()
})

const campaignOf = (connection: string, status = 'ENABLED') => sb.ctx.deps.store.campaigns.find((c) => c.connection_id === connection && c.status === status)!
const euIds = () => sb.ctx.deps.store.campaigns.filter((c) => c.connection_id === 'conn_google_acme_eu').map((c) => c.id).sort()

describe('tool annotations and descriptions as the real catalog writes them (issue 35)', () => {
  it('every tool has effect, externalMutation and a closing [effect=…; scope=…] suffix; optional arguments take null; no extra arguments', async () => {
    // Raw, as a client that keeps unknown annotation keys sees them (the SDK's own schema drops them).
    const { tools } = await client.request({ method: 'tools/list', params: {} }, z.looseObject({ tools: z.array(z.any()) })) as { tools: Tool[] }
    expect(tools.length).toBe((await listAllTools(client)).tools.length)
    for (const tool of tools) {
      const a = tool.annotations as Record<string, unknown>
      expect(['read', 'write', 'state', 'publish'], tool.name).toContain(a.effect)
      expect(typeof a.externalMutation, tool.name).toBe('boolean')
      expect(tool.description, tool.name).toMatch(new RegExp(`\\[effect=${String(a.effect)}; scope=[^;\\]]+(; requires=\\w+)?(; externalMutation=true)?\\]$`))
      expect(tool.description?.includes('externalMutation=true'), tool.name).toBe(a.externalMutation)
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false)
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
    expect(byName.enable_campaign.annotations).toMatchObject({ effect: 'state', externalMutation: true, requiredEntitlement: 'campaignPublishing' })
    expect(byName.pause_campaign.annotations).toMatchObject({ effect: 'state', externalMutation: true })
    expect(byName.pause_campaign.annotations).not.toHaveProperty('requiredEntitlement')
    expect(byName.list_campaigns.annotations).toMatchObject({ effect: 'read', externalMutation: false, readOnlyHint: true })
    expect(JSON.stringify(byName.list_campaigns.inputSchema.properties?.account_id)).toContain('"null"')
  })

  it('refuses an argument the tool does not take instead of dropping it (execute\'s expected_names is not modelled)', async () => {
    const result = await call(client, 'execute', { action: 'list_campaigns', platform: 'google', account_id: '123-456-7890', expected_names: { 'campaign-id': 'Brand' } })
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toContain('expected_names')
  })
})

describe('account selection on the shared tools (issue 35)', () => {
  it('list_campaigns without an account asks which one; with account_name or account_id it lists that account', async () => {
    const asked = await call(client, 'list_campaigns', {})
    expect(asked.isError).toBe(true)
    expect(asked.structuredContent).toMatchObject({ code: 'ACCOUNT_SELECTION_REQUIRED', http_status: 400, accounts: [{ account_id: '123-456-7890' }, { account_id: '987-654-3210' }] })
    expect(String((asked.content as Array<{ text: string }>)[0].text)).toContain('ask the user which one')
    for (const selection of [{ account_name: 'acme eu' }, { account_id: '9876543210', account_name: null }]) {
      const listed = await call(client, 'list_campaigns', selection)
      expect(listed.structuredContent?.campaigns.map((c: { campaign_id: string }) => c.campaign_id).sort()).toEqual(euIds())
    }
  })

  it('pull_google_ads_performance takes date_range, level and an account; null means not given', async () => {
    const result = await call(client, 'pull_google_ads_performance', { date_range: 'last_30_days', level: 'account', account_id: '987-654-3210', days: null, campaign_id: null })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ account_id: '987-654-3210', level: 'account', date_range: { days: 30 }, campaigns: [{ account_id: '987-654-3210' }] })
    const both = await call(client, 'pull_google_ads_performance', { date_range: 'yesterday', days: 7, account_id: '987-654-3210' })
    expect(both.structuredContent).toMatchObject({ code: 'INVALID_ARGS', flag: '--date-range' })
  })

  it('pause_campaign with another account\'s selection is 404 and pauses nothing; with its own account it pauses', async () => {
    const target = campaignOf('conn_google_acme')
    const wrong = await call(client, 'pause_campaign', { campaign_id: target.id, account_id: '987-654-3210' })
    expect(wrong.structuredContent).toMatchObject({ code: 'NOT_FOUND', http_status: 404 })
    expect(sb.ctx.deps.store.campaigns.get(target.id)?.status).toBe('ENABLED')
    const right = await call(client, 'pause_campaign', { campaign_id: target.id, account_name: 'Acme Outdoor - Google Ads' })
    expect(right.structuredContent).toMatchObject({ status: 'PAUSED' })
  })
})

describe('the generic execute tool (issue 35)', () => {
  it('dispatches a script by name with a flags map or list', async () => {
    for (const args of [{ status: 'PAUSED' }, { '--status': 'PAUSED' }, ['--status', 'PAUSED']]) {
      const listed = await call(client, 'execute', { action: 'list_campaigns', platform: 'google', args, customer_id: '987-654-3210' })
      expect(listed.isError, JSON.stringify(args)).toBeFalsy()
      expect(listed.structuredContent?.campaigns.every((c: { status: string }) => c.status === 'PAUSED')).toBe(true)
    }
  })

  it('goes through the gate like any write: enable is held, a dry run runs nothing, an unknown flag is UNRECOGNIZED_ARGS', async () => {
    const paused = campaignOf('conn_google_acme', 'PAUSED')
    const held = await call(client, 'execute', { action: 'enable_campaign', platform: 'google', args: { campaign_id: paused.id } })
    expect(held.structuredContent).toMatchObject({ status: 'pending_review', script_name: 'enable_campaign' })
    expect(sb.ctx.deps.store.audit.get(held.structuredContent?.audit_id)?.surface).toBe('mcp')
    const enabled = campaignOf('conn_google_acme')
    const dry = await call(client, 'execute', { action: 'pause_campaign', platform: 'google', args: { campaign_id: enabled.id }, dry_run: true })
    expect(dry.structuredContent).toMatchObject({ status: 'dry_run', would: 'run' })
    expect(sb.ctx.deps.store.campaigns.get(enabled.id)?.status).toBe('ENABLED')
    const unknown = await call(client, 'execute', { action: 'update_campaign_budget', platform: 'google', args: { campaign_id: enabled.id, budget: 50 } })
    expect(unknown.structuredContent).toMatchObject({ code: 'UNRECOGNIZED_ARGS', flags: ['--budget'] })
    const toolName = await call(client, 'execute', { action: 'pull_google_ads_performance' })
    expect(toolName.structuredContent).toMatchObject({ code: 'UNKNOWN_SCRIPT', use_instead: 'pull_google_ads' })
  })

  it('is refused by a policy block like the script itself', async () => {
    sb.ctx.deps.store.workspaces.update('ws_acme', { policy: { ...sb.ctx.deps.store.workspaces.get('ws_acme')!.policy, block_tools: ['pause_campaign'] } })
    const enabled = campaignOf('conn_google_acme')
    const blocked = await call(client, 'execute', { action: 'pause_campaign', platform: 'google', args: { campaign_id: enabled.id } })
    expect(blocked.structuredContent).toMatchObject({ status: 'blocked', code: 'POLICY_BLOCKED' })
    expect(sb.ctx.deps.store.campaigns.get(enabled.id)?.status).toBe('ENABLED')
  })
})

describe('stage_audience_artifact takes the body as newline-separated text (issue 35)', () => {
  it('stages one identifier per line; a list is still accepted; blank lines only is refused', async () => {
    const text = await call(client, 'stage_audience_artifact', { body: `${HASH('a')}\n\n${HASH('b')}\r\n` })
    expect(text.structuredContent).toMatchObject({ record_count: 2 })
    const list = await call(client, 'stage_audience_artifact', { body: [HASH('c')] })
    expect(list.structuredContent).toMatchObject({ record_count: 1 })
    const blank = await call(client, 'stage_audience_artifact', { body: '\n \n' })
    expect(blank.isError).toBe(true)
  })
})

describe('list_connected_accounts pages (issue 35)', () => {
  it('answers page/limit or offset/limit with total and has_more; limit over 100 is refused', async () => {
    const first = await call(client, 'list_connected_accounts', { limit: 1 })
    expect(first.structuredContent).toMatchObject({ count: 1, total: 2, page: 1, limit: 1, offset: 0, has_more: true, connections: [{ id: 'conn_google_acme' }] })
    const second = await call(client, 'list_connected_accounts', { limit: 1, page: 2 })
    expect(second.structuredContent).toMatchObject({ has_more: false, connections: [{ id: 'conn_google_acme_eu' }] })
    const byOffset = await call(client, 'list_connected_accounts', { offset: 1, limit: 1 })
    expect(byOffset.structuredContent).toMatchObject({ page: 2, connections: [{ id: 'conn_google_acme_eu' }] })
    expect((await call(client, 'list_connected_accounts', { limit: 101 })).isError).toBe(true)
  })
})
