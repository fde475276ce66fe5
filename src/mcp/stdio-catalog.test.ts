import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { WORLD_KEYS, call, listAllTools } from './mcp-test-support.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CATALOG = 'fixtures/catalogs/synthetic-200.json'

let sb: RunningSandbox
let client: Client

beforeAll(async () => {
  sb = await createSandbox({ catalog: `${ROOT}${CATALOG}` })
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/main.ts', 'mcp', '--catalog', CATALOG],
    cwd: ROOT,
    env: { SERVICE_BASE_URL: sb.baseUrl, SERVICE_API_URL: sb.apiUrl, SERVICE_API_KEY: WORLD_KEYS.owner },
    stderr: 'pipe',
  })
  client = new Client({ name: 'stdio-catalog-test', version: '0' })
  await client.connect(transport)
}, 60_000)
afterAll(async () => {
  await client?.close()
  await sb?.close()
})

describe('adops-sandbox mcp --catalog (issue 35 item 4)', { timeout: 60_000 }, () => {
  it('lists the catalog and runs a simulated tool through the sandbox serving the same catalog', async () => {
    const { tools } = await listAllTools(client)
    expect(tools.length).toBeGreaterThanOrEqual(200)
    expect(tools[0].name).toBe('google_performance_report')
    const report = await call(client, 'meta_performance_report', { date_range: 'last_7_days' })
    expect(report.structuredContent).toMatchObject({ simulated: true, platform: 'meta', date_range: { days: 7 }, credits_used: 2 })
    const refused = await client.callTool({ name: 'meta_set_daily_budget', arguments: {} }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: -32602 })
  })
})
