import { z } from 'zod'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { McpTool, ToolCall } from './tool-table.js'
import { MCP_TOOLS, describedAs } from './tool-table.js'
import { checkPageSize } from './page-size.js'
import type { SnapshotCatalog } from '../domain/catalog-snapshot.js'
import { listOf, mountSnapshotTools } from './snapshot-tools.js'

/** What a backend answers: the HTTP status the same call gets over REST, and its JSON body. */
export interface ToolOutcome {
  status: number
  body: Record<string, unknown>
}

/** Carries out `ToolCall`s: in-process for hosted MCP, over REST for the stdio server. */
export interface ToolBackend {
  run(call: ToolCall, context: { tool: string }): Promise<ToolOutcome>
}

export interface McpServerOptions {
  backend: ToolBackend
  /**
   * Tools per `tools/list` page (a positive integer). Default: every tool on one page, so a client
   * that never follows `nextCursor` still sees them all (issue 19; docs/mcp.md).
   */
  pageSize?: number
  version?: string
  /** The tools to serve, in listing order; default `MCP_TOOLS` (other sources append to it). */
  tools?: readonly McpTool[]
  /** A loaded tool-catalog snapshot (issue 35): its tools are listed and served too (`snapshot-tools.ts`). */
  catalog?: SnapshotCatalog
}

const SERVER_NAME = 'adops-sandbox'

/**
 * One MCP server over the tool table (MCP-05): the same tools, annotations and result shapes on
 * hosted MCP and stdio; only the backend differs.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: SERVER_NAME, title: 'Ad-ops sandbox', version: options.version ?? '0.1.0' })
  for (const tool of options.tools ?? MCP_TOOLS) {
    server.registerTool(tool.name, {
      title: tool.title,
      description: describedAs(tool),
      // Strict, as the real hosted tools: an argument the tool does not take is an error, never dropped.
      inputSchema: z.strictObject(tool.input),
      annotations: annotationsOf(tool),
    }, async (input: Record<string, unknown>) => {
      const outcome = await options.backend.run(tool.toCall(input), { tool: tool.name })
      return renderOutcome(outcome)
    })
  }
  const own = describedList(options.tools ?? MCP_TOOLS)
  const tools = options.catalog ? mountSnapshotTools(server, { catalog: options.catalog, backend: options.backend, own, render: renderOutcome }) : own
  pageToolList(server, tools, checkPageSize(options.pageSize) ?? tools.length)
  return server
}

/**
 * A held write is a normal result whose structured content says `pending_review` (GATE-01,
 * SDK-09); any refusal, including a policy block, is an `isError` result carrying the code.
 */
function renderOutcome({ status, body }: ToolOutcome): CallToolResult {
  if (status >= 200 && status < 300) {
    return { content: [{ type: 'text', text: `${summarize(body)}\n${JSON.stringify(body)}` }], structuredContent: body }
  }
  const code = typeof body.code === 'string' ? body.code : `HTTP_${status}`
  const structured = { ...body, code, http_status: status }
  return { isError: true, content: [{ type: 'text', text: `${code}: ${String(body.error ?? 'refused')}\n${JSON.stringify(structured)}` }], structuredContent: structured }
}

function summarize(body: Record<string, unknown>): string {
  if (body.status === 'pending_review') {
    return `Held for review (pending_review), audit_id ${String(body.audit_id)}: nothing has run yet. Do not report it as done.`
  }
  return typeof body.status === 'string' ? `status: ${body.status}` : 'ok'
}

// Our own handler, not McpServer's: it pages with opaque cursors when a page size is set, and still
// accepts a cursor when it is not, so clients that rehearse paging work against either.
function pageToolList(server: McpServer, tools: readonly Tool[], pageSize: number): void {
  server.server.removeRequestHandler('tools/list')
  server.server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const offset = decodeCursor(request.params?.cursor)
    const next = offset + pageSize
    return { tools: tools.slice(offset, next), ...(next < tools.length ? { nextCursor: encodeCursor(next) } : {}) }
  })
}

// Hosted MCP builds a server per request: each tool table's JSON Schemas are built once, not per
// request, and one list object per table lets a catalog cache its merge.
const described = new WeakMap<readonly McpTool[], readonly Tool[]>()

function describedList(table: readonly McpTool[]): readonly Tool[] {
  let tools = described.get(table)
  if (!tools) described.set(table, (tools = table.map(describe)))
  return tools
}

function describe(tool: McpTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: describedAs(tool),
    inputSchema: toJsonSchemaCompat(z.strictObject(tool.input), { strictUnions: true, pipeStrategy: 'input' }) as Tool['inputSchema'],
    annotations: annotationsOf(tool),
  }
}

/** MCP's hints plus the real catalog's `effect`, `externalMutation` and `requiredEntitlement` (issue 35). */
function annotationsOf(tool: McpTool): Tool['annotations'] {
  // Extra annotation keys are allowed by the protocol (the annotations object is open); the SDK's type lists MCP's own.
  const annotations = {
    title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: tool.destructive, openWorldHint: false,
    effect: tool.effect, externalMutation: tool.externalMutation, ...(tool.requiredEntitlement ? { requiredEntitlement: tool.requiredEntitlement } : {}),
  }
  return annotations as Tool['annotations']
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url')
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown }
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset
  } catch {
    // Falls through to the error below.
  }
  throw new McpError(ErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(cursor)}: pass back a nextCursor from tools/list.`)
}

/**
 * A `tools/list` page as `toolListPage` keeps it: the JSON text of its `result`, and a slot where a
 * transport keeps the bytes it sends it with (hosted MCP: `listingAnswer`), kept and collected with
 * the page.
 */
export interface ToolListPage {
  readonly text: string
  bytes?: { json: Buffer; sse: Buffer }
}

const pages = new WeakMap<readonly Tool[], Map<string, ToolListPage>>()

/**
 * The page a server built with these options answers `tools/list` with for `cursor` (the same
 * lists, kept per table and catalog, and the same pages), or null for a cursor it would refuse.
 * Hosted MCP answers `tools/list` from it without building a server per request: a 200-tool
 * catalog's list costs a lookup (issue 35: ≤ 5 ms p99).
 */
export function toolListPage(options: Pick<McpServerOptions, 'catalog' | 'pageSize' | 'tools'>, cursor: unknown): ToolListPage | null {
  const own = describedList(options.tools ?? MCP_TOOLS)
  const tools = options.catalog ? listOf(options.catalog, own) : own
  const pageSize = checkPageSize(options.pageSize) ?? tools.length
  let offset: number
  try {
    offset = decodeCursor(cursor === undefined ? undefined : String(cursor))
  } catch {
    return null
  }
  let kept = pages.get(tools)
  if (!kept) pages.set(tools, (kept = new Map()))
  const key = `${offset}/${pageSize}`
  let page = kept.get(key)
  if (page === undefined) {
    const next = offset + pageSize
    page = { text: JSON.stringify({ tools: tools.slice(offset, next), ...(next < tools.length ? { nextCursor: encodeCursor(next) } : {}) }) }
    // Only the pages the server's own cursors name (a page boundary within the list, or the first)
    // are kept: any other offset a caller makes up is answered but not kept, so what is kept stays
    // one catalog's worth.
    if (offset % pageSize === 0 && (offset === 0 || offset < tools.length)) kept.set(key, page)
  }
  return page
}
