import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { MCP_TOOLS } from './tool-table.js'
import { WORLD_KEYS, call, listAllTools } from './mcp-test-support.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

let sb: RunningSandbox
const closers: Array<() => Promise<unknown>> = []
beforeEach(async () => {
  sb = await createSandbox()
})
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  await sb.close()
})

/** Spawns `adops-sandbox mcp` (from source) against the in-process sandbox. */
async function spawnMcp(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/main.ts', 'mcp'],
    cwd: ROOT,
    env: { SERVICE_BASE_URL: sb.baseUrl, SERVICE_API_URL: sb.apiUrl, ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8') })
  const client = new Client({ name: 'stdio-test', version: '0' })
  await client.connect(transport)
  closers.push(() => client.close())
  return { client, stderr: () => stderr }
}

describe('adops-sandbox mcp: the local stdio server (MCP-04)', { timeout: 60_000 }, () => {
  it('offers the same tools as hosted MCP and calls REST with Authorization: Bearer from SERVICE_API_KEY', async () => {
    const { client, stderr } = await spawnMcp({ SERVICE_API_KEY: WORLD_KEYS.owner })
    expect((await listAllTools(client)).tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name))
    const credits = await call(client, 'get_credit_balance')
    expect(credits.isError).toBeFalsy()
    expect(credits.structuredContent).toMatchObject({ workspace_id: 'ws_acme', balance: 1000 })

    const [sent] = await sb.control.journal({ path: '/v1/credits' })
    expect(sent.request.headers.authorization).toMatch(/^Bearer svc_test_own/)
    expect(sent.request.headers['x-service-key']).toBeUndefined()
    expect(stderr()).toContain('tool call')
  })

  it('answers a clear isError result when SERVICE_API_KEY is missing, and keeps running', async () => {
    const { client } = await spawnMcp({})
    const first = await call(client, 'get_credit_balance')
    expect(first.isError).toBe(true)
    expect(first.structuredContent).toMatchObject({ code: 'SERVICE_API_KEY_MISSING' })
    expect(JSON.stringify(first.content)).toContain('SERVICE_API_KEY is not set')
    expect((await listAllTools(client)).tools.length).toBe(MCP_TOOLS.length)
    expect(await sb.control.journal({ path: '/v1' })).toEqual([])
  })

  it('passes a refusal through as an isError result carrying status and code', async () => {
    const { client } = await spawnMcp({ SERVICE_API_KEY: WORLD_KEYS.reporting })
    const refused = await call(client, 'list_connected_accounts')
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent).toMatchObject({ code: 'SCOPE_MISSING', scope: 'connections:read', http_status: 403 })
  })

  it('sends writes through the REST dispatcher: a held enable is a normal result with pending_review', async () => {
    const { client } = await spawnMcp({ SERVICE_API_KEY: WORLD_KEYS.agent })
    const listed = await call(client, 'list_campaigns', { status: 'PAUSED' })
    const [target] = listed.structuredContent?.campaigns as Array<{ campaign_id: string }>
    const held = await call(client, 'enable_campaign', { campaign_id: target.campaign_id })
    expect(held.isError).toBeFalsy()
    expect(held.structuredContent).toMatchObject({ status: 'pending_review', audit_id: expect.any(String) })
    const { entries } = await sb.control.audit({ limit: 10 })
    expect(entries.find((e) => e.audit_id === held.structuredContent?.audit_id)).toMatchObject({ surface: 'rest', status: 'pending_review' })
  })
})
