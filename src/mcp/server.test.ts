import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import { authenticate, authorize } from '../domain/access.js'
import { findEntry } from '../domain/catalog.js'
import { createMcpServer } from './server.js'
import { inProcessBackend } from './in-process-backend.js'
import { MCP_TOOLS } from './tool-table.js'
import { WORLD_KEYS, call, listAllTools } from './mcp-test-support.js'

let sb: Sandbox
const closers: Array<() => Promise<unknown>> = []
beforeEach(async () => {
  sb = await buildSandbox()
})
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  await sb.close()
})

/** An SDK client wired to the hosted server logic over the in-memory pair, acting with `key`. */
async function connect(key: string, pageSize?: number): Promise<Client> {
  const actor = () => authorize(sb.ctx.deps, authenticate(sb.ctx.deps, key), null)
  const server = createMcpServer({ backend: inProcessBackend({ ctx: sb.ctx, actor }), pageSize })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'mem', version: '0' })
  await client.connect(clientSide)
  closers.push(() => client.close(), () => server.close())
  return client
}

async function campaigns(client: Client, status: 'ENABLED' | 'PAUSED'): Promise<Array<{ campaign_id: string; daily_budget: number; status: string }>> {
  const listed = await call(client, 'list_campaigns', { status })
  expect(listed.isError).toBeFalsy()
  return listed.structuredContent?.campaigns
}

const auditOf = (id: string) => sb.ctx.deps.store.audit.get(id)

describe('the MCP tool table (MCP-05)', () => {
  it.each(MCP_TOOLS.map((t) => [t.name, t] as const))('%s maps to the catalog entry that names it as its MCP tool', (name, tool) => {
    const sample = { campaign_id: 'c', daily_budget: 10, script_name: 'pull_google_ads', action: 'pull_google_ads', args: [], body: ['a'], platform: 'google' }
    const target = tool.toCall(sample)
    if (target.kind === 'dispatch' && name !== 'run_tool' && name !== 'execute') expect(findEntry(target.script)?.mcp_tool).toBe(name)
    if (target.kind === 'landing_pages' || target.kind === 'stage_artifact') expect(findEntry(name)?.executable).toBe(false)
  })

  it('pages tools/list with cursors and refuses a forged cursor', async () => {
    const client = await connect(WORLD_KEYS.owner, 3)
    const { tools, pages } = await listAllTools(client)
    expect(pages).toBe(Math.ceil(MCP_TOOLS.length / 3))
    expect(new Set(tools.map((t) => t.name)).size).toBe(MCP_TOOLS.length)
    await expect(client.listTools({ cursor: 'not-a-cursor' })).rejects.toThrow(/Invalid cursor/)
  })
})

describe('MCP tools run through the dispatcher, gate and audit (MCP-05)', () => {
  it('pull_google_ads_performance runs the script pull_google_ads and charges its credits', async () => {
    const client = await connect(WORLD_KEYS.owner)
    const result = await call(client, 'pull_google_ads_performance', { days: 7 })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ sandbox: true, credits_used: findEntry('pull_google_ads')?.credit_cost })
  })

  it.each(['2026-02-30', '2025-02-29', '2026-04-31'])('refuses the impossible date %s in the tool arguments, like the dispatcher, and charges nothing', async (date) => {
    const client = await connect(WORLD_KEYS.owner)
    const before = sb.ctx.deps.store.workspaces.get('ws_acme')!.credits.balance
    const result = await call(client, 'pull_google_ads_performance', { start_date: date, end_date: '2026-05-01' })
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toContain('start_date')
    expect(sb.ctx.deps.store.workspaces.get('ws_acme')!.credits.balance).toBe(before)
  })

  it('pause_campaign runs at once under the default policy and is audited with surface mcp', async () => {
    const client = await connect(WORLD_KEYS.agent)
    const [target] = await campaigns(client, 'ENABLED')
    const paused = await call(client, 'pause_campaign', { campaign_id: target.campaign_id })
    expect(paused.isError).toBeFalsy()
    const audit = auditOf(paused.structuredContent?.audit_id)
    expect(audit).toMatchObject({ surface: 'mcp', script: 'pause_campaign', status: 'executed', decision: 'run' })
    expect(sb.ctx.deps.store.campaigns.get(target.campaign_id)?.status).toBe('PAUSED')
  })

  it('enable_campaign is held: a normal result with status pending_review and the audit_id; nothing ran', async () => {
    const client = await connect(WORLD_KEYS.agent)
    const [target] = await campaigns(client, 'PAUSED')
    const held = await call(client, 'enable_campaign', { campaign_id: target.campaign_id })
    expect(held.isError).toBeFalsy()
    expect(held.structuredContent).toMatchObject({ status: 'pending_review', reviewed_args: ['--campaign-id', target.campaign_id] })
    expect(JSON.stringify(held.content)).toContain('nothing has run')
    expect(auditOf(held.structuredContent?.audit_id)).toMatchObject({ surface: 'mcp', status: 'pending_review' })
    expect(sb.ctx.deps.store.campaigns.get(target.campaign_id)?.status).toBe('PAUSED')
  })

  it('update_campaign_budget sends --campaign-id and --daily-budget', async () => {
    const client = await connect(WORLD_KEYS.agent)
    const [target] = await campaigns(client, 'ENABLED')
    const done = await call(client, 'update_campaign_budget', { campaign_id: target.campaign_id, daily_budget: 42 })
    expect(done.isError).toBeFalsy()
    expect(auditOf(done.structuredContent?.audit_id)?.args).toEqual(['--campaign-id', target.campaign_id, '--daily-budget', '42'])
    expect(sb.ctx.deps.store.campaigns.get(target.campaign_id)?.daily_budget).toBe(42)
  })

  it('a policy block is an isError result with POLICY_BLOCKED and status blocked', async () => {
    const workspace = sb.ctx.deps.store.workspaces.get('ws_acme')!
    sb.ctx.deps.store.workspaces.update('ws_acme', { policy: { ...workspace.policy, block_tools: ['pause_campaign'] } })
    const client = await connect(WORLD_KEYS.agent)
    const [target] = await campaigns(client, 'ENABLED')
    const blocked = await call(client, 'pause_campaign', { campaign_id: target.campaign_id })
    expect(blocked.isError).toBe(true)
    expect(blocked.structuredContent).toMatchObject({ code: 'POLICY_BLOCKED', status: 'blocked', http_status: 403 })
    expect(auditOf(blocked.structuredContent?.audit_id)).toMatchObject({ surface: 'mcp', status: 'blocked' })
  })

  it.each([
    ['an MCP tool name as a script', { script_name: 'pull_google_ads_performance' }, 'UNKNOWN_SCRIPT'],
    ['the rejected --budget flag', { script_name: 'update_campaign_budget', args: ['--campaign-id', 'x', '--budget', '5'], platform: 'google' }, 'UNRECOGNIZED_ARGS'],
  ])('run_tool refuses %s before anything runs or is charged', async (_name, input, code) => {
    const client = await connect(WORLD_KEYS.owner)
    const before = sb.ctx.deps.store.workspaces.get('ws_acme')!.credits.balance
    const refused = await call(client, 'run_tool', input)
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent).toMatchObject({ code, http_status: 400 })
    expect(sb.ctx.deps.store.workspaces.get('ws_acme')!.credits.balance).toBe(before)
    expect(sb.ctx.deps.store.audit.size()).toBe(0)
  })

  it('invalid arguments are an isError result from the SDK, and nothing runs', async () => {
    const client = await connect(WORLD_KEYS.agent)
    const refused = await call(client, 'update_campaign_budget', { campaign_id: 'x', daily_budget: 'lots' })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toContain('Input validation error')
    expect(sb.ctx.deps.store.audit.size()).toBe(0)
  })

  it('a key without the script\'s scope gets an isError SCOPE_MISSING result', async () => {
    const client = await connect(WORLD_KEYS.reporting)
    const refused = await call(client, 'pause_campaign', { campaign_id: 'anything' })
    expect(refused.structuredContent).toMatchObject({ code: 'SCOPE_MISSING', scope: 'campaigns:write' })
  })

  it('list_landing_pages and stage_audience_artifact do what their REST endpoints do', async () => {
    const client = await connect(WORLD_KEYS.owner)
    const pages = await call(client, 'list_landing_pages')
    expect(pages.structuredContent).toMatchObject({ sandbox: true, count: expect.any(Number) })
    const staged = await call(client, 'stage_audience_artifact', { body: ['a'.repeat(64), 'b'.repeat(64)] })
    expect(staged.isError).toBeFalsy()
    expect(staged.structuredContent).toMatchObject({ record_count: 2, ttl_seconds: 3600, artifact_id: expect.any(String) })
    const raw = await call(client, 'stage_audience_artifact', { body: ['olivia@acme.test'] })
    expect(raw.structuredContent).toMatchObject({ code: 'INVALID_REQUEST', http_status: 400 })
  })
})
