import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { MCP_TOOLS } from './tool-table.js'
import { WORLD_KEYS, connectHttp, listAllTools } from './mcp-test-support.js'

/** `serve --mcp-page-size` reaches hosted MCP (issue 19 item 6; docs/mcp.md). */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** `adops-sandbox serve` on ephemeral ports with memory state; resolves with its banner. */
async function serve(args: string[]): Promise<{ base_url: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SANDBOX_')))
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--port', '0', '--api-port', '0', '--state', 'memory', '--json', '--log-level', 'silent', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] })
  closers.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    await exited
  })
  let out = ''
  for await (const chunk of child.stdout) {
    out += String(chunk)
    if (out.includes('\n')) break
  }
  return JSON.parse(out.split('\n')[0]) as { base_url: string }
}

describe('--mcp-page-size on serve', { timeout: 90_000 }, () => {
  it('pages hosted /mcp three tools at a time, and the pages add up to every tool', async () => {
    const banner = await serve(['--mcp-page-size', '3'])
    const client = await connectHttp(banner.base_url, { headers: { 'X-Service-Key': WORLD_KEYS.owner } })
    closers.push(() => client.close())
    expect((await client.listTools()).tools).toHaveLength(3)
    const { tools, pages } = await listAllTools(client)
    expect({ names: tools.map((t) => t.name), pages }).toEqual({ names: MCP_TOOLS.map((t) => t.name), pages: 4 })
  })
})
