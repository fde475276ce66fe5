import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { duration } from '../schema.js'
import { parseMs } from '../time.js'
import type { StepContext, StepSubject, Target } from '../types.js'
import { registerStepKind } from './registry.js'
import { credential, lower } from './request.js'
import { signIn } from '../../src/mcp/sign-in-client.js'

const auth = z.union([
  z.string(),
  z.null(),
  z.strictObject({
    service_key: z.string().optional(),
    bearer: z.string().optional(),
    authorization: z.string().optional(),
    /** Sign in through the sandbox's OAuth sign-in page as `<user_id> <workspace_id>`. */
    oauth: z.strictObject({ account: z.string(), scope: z.string().optional() }).optional(),
  }),
])

/**
 * `mcp`: one MCP operation, over hosted MCP (`{base_url}/mcp`, Streamable HTTP, raw JSON-RPC so a
 * refused connection shows its HTTP status and headers) or over the local stdio server
 * (`adops-sandbox mcp`, key in SERVICE_API_KEY). `auth: <name>` sends `X-Service-Key` on HTTP.
 * The result body of `tool` is `{isError, structured, text}`; of `list_tools`, `{tools, count,
 * pages, next_cursor}`: every page unless `follow_cursor: false` (one `tools/list`, as a client that
 * ignores `nextCursor` sees it). `page_size` starts the stdio server with `--mcp-page-size`.
 */
export const mcpSchema = z.strictObject({
  transport: z.enum(['http', 'stdio']).default('http'),
  auth: auth.optional(),
  headers: z.record(z.string(), z.string()).default({}),
  tool: z.string().optional(),
  arguments: z.record(z.string(), z.unknown()).default({}),
  list_tools: z.literal(true).optional(),
  follow_cursor: z.boolean().default(true),
  page_size: z.number().int().positive().optional(),
  timeout: duration.default('30s'),
}).refine((s) => (s.tool === undefined) !== (s.list_tools === undefined), 'give exactly one of `tool` or `list_tools`')
  // Hosted MCP's page size is the running sandbox's (`serve --mcp-page-size`); only a spawned stdio server takes one per step.
  .refine((s) => s.page_size === undefined || s.transport === 'stdio', '`page_size` applies to `transport: stdio` only (hosted MCP pages as `serve --mcp-page-size` says)')

export type McpSpec = z.output<typeof mcpSchema>

/** OAuth sign-in picks a sandbox user on the sandbox's own page: sandbox targets only. */
export function mcpRequires(spec: McpSpec): string[] {
  return spec.auth && typeof spec.auth === 'object' && spec.auth.oauth ? ['control'] : []
}

export async function runMcp(spec: McpSpec, ctx: StepContext): Promise<StepSubject> {
  const s = ctx.render(spec)
  return s.transport === 'stdio' ? runStdio(s, ctx.target) : runHttp(s, ctx.target)
}

interface Rpc { status: number; headers: Record<string, string>; body: any }

async function runHttp(s: McpSpec, target: Target): Promise<StepSubject> {
  const headers = { ...(await httpAuth(s.auth, target)), ...lower(s.headers) }
  const url = `${target.baseUrl.replace(/\/$/, '')}/mcp`
  const signal = AbortSignal.timeout(parseMs(s.timeout))
  const post = (message: unknown, session?: string) => rpcPost(url, { ...headers, ...(session ? { 'mcp-session-id': session } : {}) }, message, signal)
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'adops-conform', version: '0.1.0' } } })
  if (init.status !== 200 || !init.body?.result) return { status: init.status, headers: init.headers, body: init.body, notes: [`POST ${url} initialize → ${init.status}`] }
  const session = init.headers['mcp-session-id']
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)
  if (s.list_tools) {
    const tools: unknown[] = []
    let cursor: string | undefined
    let last: Rpc = init
    let pages = 0
    do {
      last = await post({ jsonrpc: '2.0', id: 10 + pages, method: 'tools/list', params: cursor ? { cursor } : {} }, session)
      if (!last.body?.result) return { status: last.status, headers: last.headers, body: last.body }
      tools.push(...last.body.result.tools)
      cursor = last.body.result.nextCursor
      pages++
    } while (s.follow_cursor && cursor && pages < MAX_PAGES)
    return { status: last.status, headers: last.headers, body: listed(tools, pages, cursor), notes: [`tools/list over ${url} (${pages} page(s))`] }
  }
  const called = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: s.tool, arguments: s.arguments } }, session)
  return { status: called.status, headers: called.headers, body: toolBody(called.body), notes: [`tools/call ${s.tool} over ${url}`] }
}

async function runStdio(s: McpSpec, target: Target): Promise<StepSubject> {
  const named = typeof s.auth === 'string' ? s.auth : s.auth?.service_key
  const key = named && named !== 'none' ? credential(named, target) : undefined
  const main = fileURLToPath(new URL(`../../src/main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url))
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(main.endsWith('.ts') ? ['--import', 'tsx'] : []), main, 'mcp', '--log-level', 'warn', ...(s.page_size ? ['--mcp-page-size', String(s.page_size)] : [])],
    env: { SERVICE_BASE_URL: target.baseUrl, SERVICE_API_URL: target.apiUrl, ...(key ? { SERVICE_API_KEY: key } : {}) },
    stderr: 'ignore',
  })
  const client = new Client({ name: 'adops-conform', version: '0.1.0' })
  const options = { timeout: parseMs(s.timeout) }
  try {
    await client.connect(transport, options)
    if (s.list_tools) {
      const tools: unknown[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, options)
        tools.push(...page.tools)
        cursor = page.nextCursor
        pages++
      } while (s.follow_cursor && cursor && pages < MAX_PAGES)
      return { status: 200, body: listed(tools, pages, cursor), notes: [`tools/list over stdio (${pages} page(s))`] }
    }
    const result = await client.callTool({ name: s.tool as string, arguments: s.arguments }, undefined, options)
    return { status: 200, body: toolBody({ result }), notes: [`tools/call ${s.tool} over stdio (adops-sandbox mcp)`] }
  } finally {
    await client.close()
  }
}

// A server that keeps handing out cursors must not keep the step busy forever.
const MAX_PAGES = 20

/** `next_cursor` is what the last page read said: null once the list is complete. */
function listed(tools: unknown[], pages: number, cursor: string | undefined) {
  return { tools, count: tools.length, pages, next_cursor: cursor ?? null }
}

function toolBody(message: any): unknown {
  if (!message?.result) return message?.error ? { rpc_error: message.error } : message
  const { isError, structuredContent, content } = message.result
  const text = Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? '').join('\n') : ''
  return { isError: Boolean(isError), structured: structuredContent ?? null, text }
}

async function rpcPost(url: string, headers: Record<string, string>, message: unknown, signal: AbortSignal): Promise<Rpc> {
  const res = await fetch(url, {
    method: 'POST', signal,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers },
    body: JSON.stringify(message),
  })
  const text = await res.text()
  return { status: res.status, headers: Object.fromEntries(res.headers), body: parseRpc(text, res.headers.get('content-type') ?? '') }
}

// One JSON body, or the last `data:` event of an SSE reply.
function parseRpc(text: string, contentType: string): unknown {
  if (!text) return null
  const payload = contentType.includes('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).pop() ?? ''
    : text
  try {
    return JSON.parse(payload)
  } catch {
    return text
  }
}

async function httpAuth(value: McpSpec['auth'], target: Target): Promise<Record<string, string>> {
  if (value === undefined || value === null || value === 'none') return {}
  if (typeof value === 'string') return { 'x-service-key': credential(value, target) }
  const out: Record<string, string> = {}
  if (value.service_key !== undefined) out['x-service-key'] = credential(value.service_key, target)
  if (value.bearer !== undefined) out.authorization = `Bearer ${credential(value.bearer, target)}`
  if (value.authorization !== undefined) out.authorization = value.authorization
  // A token-protected sandbox's sign-in page asks for its admin token first (docs/mcp.md).
  if (value.oauth) out.authorization = `Bearer ${(await signIn(target.baseUrl, { ...value.oauth, adminToken: target.adminToken })).tokens.access_token}`
  return out
}

registerStepKind({ name: 'mcp', schema: mcpSchema, requires: mcpRequires, run: runMcp })
