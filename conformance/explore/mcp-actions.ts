import fc from 'fast-check'
import type { Action, Reach } from './actions.js'
import { CAMPAIGN, named, pickCampaign } from './actions.js'

/** A tool as the target's hosted MCP lists it (`tools/list`): what the exploration reads of it. */
export interface McpToolInfo {
  name: string
  inputSchema?: { properties?: Record<string, JsonSchema>; required?: string[] }
  annotations?: { readOnlyHint?: boolean; effect?: string }
}

interface JsonSchema {
  type?: string | string[]
  enum?: unknown[]
  default?: unknown
  anyOf?: JsonSchema[]
  minimum?: number
}

/**
 * The target's MCP tools, listed once with the main key and no session (the real bridge's way,
 * issue 35); none when the target has no hosted MCP or refuses the listing.
 */
export async function listMcpTools(baseUrl: string, key: string): Promise<McpToolInfo[]> {
  try {
    const answer = await fetch(`${baseUrl.replace(/\/$/, '')}/mcp`, {
      method: 'POST',
      headers: { 'x-service-key': key, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      signal: AbortSignal.timeout(10_000),
    })
    const body = (await answer.json()) as { result?: { tools?: McpToolInfo[] } }
    return answer.ok ? body.result?.tools ?? [] : []
  } catch {
    return []
  }
}

/** Arguments a tool's schema takes, filled from its enums, defaults and a campaign id; null when one cannot be. */
function argumentsFor(tool: McpToolInfo): Record<string, unknown> | null {
  const props = tool.inputSchema?.properties ?? {}
  const out: Record<string, unknown> = {}
  for (const name of tool.inputSchema?.required ?? []) {
    const value = valueFor(name, props[name] ?? {})
    if (value === undefined) return null
    out[name] = value
  }
  return out
}

function valueFor(name: string, schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default
  if (schema.enum?.length) return schema.enum[0]
  if (name === 'campaign_id') return CAMPAIGN
  if (name === 'platform') return 'google'
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type ?? schema.anyOf?.find((s) => s.type !== 'null')?.type
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 7, 1)
  if (type === 'boolean') return false
  return undefined
}

const rpc = (key: string, id: number, method: string, params?: unknown): Record<string, unknown> => ({
  method: 'POST', path: '/mcp', auth: { service_key: key }, headers: { accept: 'application/json' },
  json: { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
})

/**
 * Actions over the target's hosted MCP, generated from the tools it lists: a read tool called with
 * arguments its schema accepts answers without a protocol error (MCP-01, MCP-05); an anonymous
 * call is 401 (MCP-02); with writes, an enable through MCP is held like any write (MCP-05, GATE-01).
 */
export function mcpActions(reach: Reach, tools: readonly McpToolInfo[]): fc.Arbitrary<Action>[] {
  const key = reach.roles.main
  const reads = tools.filter((t) => t.annotations?.readOnlyHint === true).flatMap((t) => {
    const args = argumentsFor(t)
    return args ? [{ tool: t.name, args }] : []
  })
  const out: fc.Arbitrary<Action>[] = [fc.constant({
    kind: 'mcp-anonymous', steps: [{
      name: named('auth-first', 'tools/list over MCP without a credential'),
      request: { method: 'POST', path: '/mcp', auth: null, headers: { accept: 'application/json' }, json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      expect: { status: 401, contract: 'off' },
    }],
  })]
  if (reads.length) {
    out.push(fc.record({ read: fc.constantFrom(...reads), index: fc.nat(3) }).map(({ read, index }) => ({
      kind: 'mcp-read', steps: [
        pickCampaign(key, index),
        { name: named('mcp-tool-answers', `tools/call ${read.tool}`), request: rpc(key, 2, 'tools/call', { name: read.tool, arguments: read.args }), expect: { status: 200, contract: 'off', match: { '$.error': { exists: false }, '$.result': { exists: true } } } },
      ],
    })))
  }
  const enable = tools.find((t) => t.name === 'enable_campaign' && t.inputSchema?.properties?.campaign_id)
  const pause = tools.find((t) => t.name === 'pause_campaign' && t.inputSchema?.properties?.campaign_id)
  if (reach.writes && enable && pause) {
    out.push(fc.nat(3).map((index) => ({
      kind: 'mcp-held-enable', steps: [
        pickCampaign(key, index),
        { name: named('contract', 'pause over MCP first'), request: rpc(key, 3, 'tools/call', { name: pause.name, arguments: { campaign_id: CAMPAIGN } }), expect: { status: 200, contract: 'off' } },
        { name: named('held-write-waits', 'enabling over MCP is held'), request: rpc(key, 4, 'tools/call', { name: enable.name, arguments: { campaign_id: CAMPAIGN } }), expect: { status: 200, contract: 'off', match: { '$.result.structuredContent.status': 'pending_review' } } },
        { name: named('held-write-waits', 'the campaign is still paused'), request: { host: 'api', path: `/v1/campaigns/${CAMPAIGN}`, auth: key }, expect: { status: 200, json: { status: 'PAUSED' } } },
      ],
    })))
  }
  return out
}
