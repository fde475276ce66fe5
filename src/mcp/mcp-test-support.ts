import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'

/** Test helpers for MCP clients (SDK client over HTTP); not part of the product. */

export const WORLD_KEYS = {
  owner: 'svc_test_ownerAcme00000000000000000000000',
  agent: 'svc_test_agentAcme00000000000000000000000',
  reviewer: 'svc_test_reviewerAcme00000000000000000000',
  reporting: 'svc_test_reportingAcme0000000000000000000',
  signup: 'svc_test_signupOlivia00000000000000000000',
  alexClientA: 'svc_test_alexClientA000000000000000000000',
  alexClientB: 'svc_test_alexClientB000000000000000000000',
} as const

/** An SDK client connected to `{base_url}/mcp` with the given headers or OAuth provider. */
export async function connectHttp(baseUrl: string, init: { headers?: Record<string, string>; authProvider?: OAuthClientProvider } = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '0.0.1' })
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: init.headers ?? {} },
    authProvider: init.authProvider,
  })
  await client.connect(transport)
  return client
}

/** Every tool, following `nextCursor`; also returns how many pages it took. */
export async function listAllTools(client: Client): Promise<{ tools: Tool[]; pages: number }> {
  const tools: Tool[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await client.listTools(cursor ? { cursor } : {})
    tools.push(...page.tools)
    cursor = page.nextCursor
    pages++
  } while (cursor && pages < 20)
  return { tools, pages }
}

/** Calls a tool and returns the result with `structuredContent` typed loosely. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { structuredContent?: Record<string, any> }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, any> }
}

/** A raw JSON-RPC POST to `/mcp`, for transport-level assertions. */
export async function rpc(baseUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  })
}

export const INITIALIZE = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
}
