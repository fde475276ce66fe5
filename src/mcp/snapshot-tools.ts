import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { SnapshotCatalog } from '../domain/catalog-snapshot.js'
import { findEntry } from '../domain/catalog.js'
import type { ArgsMap } from '../client/flags.js'
import { toFlags } from '../client/flags.js'
import type { ToolBackend, ToolOutcome } from './server.js'

type Handler = (request: unknown, extra: unknown) => Promise<unknown>

export interface SnapshotToolsOptions {
  catalog: SnapshotCatalog
  backend: ToolBackend
  /** The sandbox's own tools as `tools/list` describes them. */
  own: readonly Tool[]
  render: (outcome: ToolOutcome) => CallToolResult
}

/**
 * Serves a loaded catalog's tools on one MCP server (issue 35 item 4) and returns the `tools/list`
 * it answers: every tool of the catalog in its order (a tool the sandbox models is listed and run
 * as the sandbox's own), then the sandbox's tools the catalog lacks. A simulated tool's arguments
 * are checked against its `inputSchema`; a refusal is a JSON-RPC error -32602 (Invalid params), as
 * the issue asks, before anything runs or is charged.
 */
export function mountSnapshotTools(server: McpServer, options: SnapshotToolsOptions): Tool[] {
  const { catalog, backend, render } = options
  const modelled = modelledCall(server)
  server.server.removeRequestHandler('tools/call')
  const ownNames = new Set(options.own.map((t) => t.name))
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params
    const args = request.params.arguments ?? {}
    if (ownNames.has(name) || !catalog.tool(name)) return modelled(request, extra) as Promise<CallToolResult>
    // A catalog tool named after one of the sandbox's scripts runs that script, its arguments as flags.
    if (!catalog.find(name)) {
      const script = findEntry(name)
      return render(await backend.run({ kind: 'dispatch', script: script?.name ?? name, args: toFlags(args as ArgsMap) }, { tool: name }))
    }
    const problem = catalog.problemWith(name, args)
    if (problem) {
      throw new McpError(ErrorCode.InvalidParams, `Input validation error: Invalid arguments for tool ${name}: ${problem}`, { tool: name, problem })
    }
    return render(await backend.run({ kind: 'snapshot', tool: name, arguments: args }, { tool: name }))
  })
  return listOf(catalog, options.own)
}

// McpServer answers `tools/call` for the tools registered with it (validation by their zod shapes,
// result rendering); simulated tools are answered before it. Its handler is taken as it stands.
function modelledCall(server: McpServer): Handler {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers
  const handler = handlers?.get('tools/call')
  if (!handler) throw new Error('MCP SDK: no tools/call handler to wrap (register the sandbox tools first)')
  return handler
}

const lists = new WeakMap<SnapshotCatalog, WeakMap<readonly Tool[], Tool[]>>()

/** The merged list, built once per catalog and own-tool list: `tools/list` answers slices of it. */
export function listOf(catalog: SnapshotCatalog, own: readonly Tool[]): Tool[] {
  let byOwn = lists.get(catalog)
  if (!byOwn) lists.set(catalog, (byOwn = new WeakMap()))
  let list = byOwn.get(own)
  if (!list) {
    const ownByName = new Map(own.map((t) => [t.name, t]))
    const listed = catalog.tools.map((t) => ownByName.get(t.name) ?? describeSnapshotTool(t))
    const names = new Set(listed.map((t) => t.name))
    list = [...listed, ...own.filter((t) => !names.has(t.name))]
    byOwn.set(own, list)
  }
  return list
}

/** A simulated tool as the catalog describes it: name, title, description, inputSchema, annotations (and outputSchema if any). */
function describeSnapshotTool(tool: SnapshotCatalog['tools'][number]): Tool {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: { type: 'object', ...tool.inputSchema } as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: tool.annotations as Tool['annotations'] } : {}),
  }
}
