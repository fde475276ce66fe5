import { execFile } from 'node:child_process'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { MCP_TOOLS } from './tool-table.js'
import { WORLD_KEYS } from './mcp-test-support.js'

/**
 * Issue 19 item 6, checked with the MCP Inspector's own CLI (`@modelcontextprotocol/inspector-cli`,
 * the Node 20 build of `inspector --cli`): it sends one `tools/list` and never follows
 * `nextCursor`, so it lists every tool only when one page holds them all. A held write reads as
 * held through it too. Both the stdio server and hosted `/mcp`.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const INSPECTOR = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js', import.meta.url))
const run = promisify(execFile)

let sb: RunningSandbox
beforeAll(async () => {
  sb = await createSandbox()
})
afterAll(async () => {
  await sb?.close()
})

/** The Inspector's argv: the target first, its method flags, then (stdio) the server's own flags after `--`. */
type Target = { name: string; argv: (key: string, method: string[]) => string[] }
const TARGETS: Target[] = [
  {
    name: 'adops-sandbox mcp (stdio)',
    argv: (_key, method) => [process.execPath, ...method, '--', '--import', 'tsx', `${ROOT}/src/main.ts`, 'mcp', '--log-level', 'warn'],
  },
  { name: 'hosted /mcp', argv: (key, method) => [`${sb.baseUrl}/mcp`, '--transport', 'http', '--header', `X-Service-Key: ${key}`, ...method] },
]

async function inspect(target: Target, key: string, method: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [INSPECTOR, ...target.argv(key, method)], {
    // The Inspector CLI looks for its package.json at `../package.json` from the working directory.
    cwd: dirname(INSPECTOR),
    env: { ...process.env, SERVICE_BASE_URL: sb.baseUrl, SERVICE_API_URL: sb.apiUrl, SERVICE_API_KEY: key, NO_COLOR: '1' },
    timeout: 60_000,
  })
  return JSON.parse(stdout) as Record<string, unknown>
}

describe.each(TARGETS)('the MCP Inspector CLI against $name', { timeout: 90_000 }, (target) => {
  it('lists every tool from one tools/list', async () => {
    const listed = await inspect(target, WORLD_KEYS.owner, ['--method', 'tools/list'])
    const names = (listed.tools as Array<{ name: string }>).map((t) => t.name)
    expect(names).toEqual(MCP_TOOLS.map((t) => t.name))
    expect(listed.nextCursor).toBeUndefined()
  })

  it('shows a held enable_campaign as pending_review, and the campaign stays paused', async () => {
    const pausedIds = async (): Promise<string[]> => {
      const listed = await inspect(target, WORLD_KEYS.agent, ['--method', 'tools/call', '--tool-name', 'list_campaigns', '--tool-arg', 'status=PAUSED'])
      return ((listed.structuredContent as { campaigns: Array<{ campaign_id: string }> }).campaigns).map((c) => c.campaign_id)
    }
    const [paused] = await pausedIds()
    // The Inspector JSON-parses `--tool-arg` values: quote the digits so the id stays a string.
    const enable = ['--method', 'tools/call', '--tool-name', 'enable_campaign', '--tool-arg', `campaign_id="${paused}"`]
    const result = await inspect(target, WORLD_KEYS.agent, enable)
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ status: 'pending_review', audit_id: expect.any(String) })
    expect(await pausedIds()).toContain(paused)
  })
})
