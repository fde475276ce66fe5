import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { parseMcpPageSize } from '../cli/mcp-page-size.js'
import { MCP_TOOLS } from './tool-table.js'
import { WORLD_KEYS, call, connectHttp, listAllTools } from './mcp-test-support.js'

/**
 * Issue 19 item 6: a client that sends one `tools/list` and never follows `nextCursor` (the MCP
 * Inspector's CLI does this) sees every tool, on `adops-sandbox mcp` (stdio) and hosted `/mcp`;
 * `--mcp-page-size` / `createSandbox({ mcpPageSize })` still rehearse paging.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const NAMES = MCP_TOOLS.map((t) => t.name)

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

async function sandbox(options: { mcpPageSize?: number } = {}): Promise<RunningSandbox> {
  const sb = await createSandbox(options)
  closers.push(() => sb.close())
  return sb
}

/** `npx tsx src/main.ts mcp [...flags]` against `sb`, acting with `key`. */
async function stdioClient(sb: RunningSandbox, key: string, flags: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: 'npx',
    args: ['tsx', 'src/main.ts', 'mcp', '--log-level', 'warn', ...flags],
    cwd: ROOT,
    env: { ...process.env, SERVICE_BASE_URL: sb.baseUrl, SERVICE_API_URL: sb.apiUrl, SERVICE_API_KEY: key } as Record<string, string>,
    stderr: 'ignore',
  })
  const client = new Client({ name: 'whole-list-test', version: '0' })
  await client.connect(transport)
  closers.push(() => client.close())
  return client
}

async function hostedClient(sb: RunningSandbox, key: string): Promise<Client> {
  const client = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': key } })
  closers.push(() => client.close())
  return client
}

const SERVERS = [
  { server: 'adops-sandbox mcp (stdio)', connect: stdioClient },
  { server: 'hosted /mcp (Streamable HTTP)', connect: hostedClient },
] as const

describe.each(SERVERS)('$server, as a client that never follows nextCursor', { timeout: 90_000 }, ({ connect }) => {
  it('sees every tool in the answer to one tools/list, with no cursor', async () => {
    const sb = await sandbox()
    const client = await connect(sb, WORLD_KEYS.owner)
    const page = await client.listTools()
    expect(page.tools.map((t) => t.name)).toEqual(NAMES)
    expect(page.nextCursor).toBeUndefined()
  })

  it('reads a held enable_campaign as held: pending_review, nothing ran', async () => {
    const sb = await sandbox()
    const client = await connect(sb, WORLD_KEYS.agent)
    const [paused] = (await call(client, 'list_campaigns', { status: 'PAUSED' })).structuredContent?.campaigns as Array<{ campaign_id: string }>
    const held = await call(client, 'enable_campaign', { campaign_id: paused.campaign_id })
    expect(held.isError).toBeFalsy()
    expect(held.structuredContent).toMatchObject({ status: 'pending_review', audit_id: expect.any(String) })
    expect(JSON.stringify(held.content)).toContain('Held for review (pending_review)')
    const stillPaused = (await call(client, 'list_campaigns', { status: 'PAUSED' })).structuredContent?.campaigns as Array<{ campaign_id: string }>
    expect(stillPaused.map((c) => c.campaign_id)).toContain(paused.campaign_id)
  })
})

describe('a set MCP page size rehearses nextCursor paging', { timeout: 90_000 }, () => {
  it('hosted /mcp with createSandbox({ mcpPageSize: 4 }) pages 4, 4, 2 and the pages add up to every tool', async () => {
    const client = await hostedClient(await sandbox({ mcpPageSize: 4 }), WORLD_KEYS.owner)
    const first = await client.listTools()
    expect({ size: first.tools.length, cursor: typeof first.nextCursor }).toEqual({ size: 4, cursor: 'string' })
    const { tools, pages } = await listAllTools(client)
    expect({ names: tools.map((t) => t.name), pages }).toEqual({ names: NAMES, pages: Math.ceil(NAMES.length / 4) })
  })

  it('adops-sandbox mcp --mcp-page-size 3 pages the same tools', async () => {
    const client = await stdioClient(await sandbox(), WORLD_KEYS.owner, ['--mcp-page-size', '3'])
    expect((await client.listTools()).tools).toHaveLength(3)
    const { tools, pages } = await listAllTools(client)
    expect({ names: tools.map((t) => t.name), pages }).toEqual({ names: NAMES, pages: Math.ceil(NAMES.length / 3) })
  })

  it.each([0, -2, 1.5, Number.NaN])('createSandbox refuses page size %s before listening', async (size) => {
    await expect(createSandbox({ mcpPageSize: size })).rejects.toThrow(/MCP page size must be a positive integer/)
  })

  it.each(['0', '-1', '2.5', 'ten', '', ' '])('--mcp-page-size %j is refused with a clear message', (value) => {
    expect(() => parseMcpPageSize(value)).toThrow(/a page size is a positive integer/)
  })

  it.each([['1', 1], ['5', 5], ['40', 40]])('--mcp-page-size %s is %i tools a page', (value, size) => {
    expect(parseMcpPageSize(value)).toBe(size)
  })
})
