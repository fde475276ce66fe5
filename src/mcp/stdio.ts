import type { Logger } from 'pino'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { RestClient } from '../client/rest-client.js'
import { createMcpServer } from './server.js'
import { restBackend } from './rest-backend.js'
import type { SnapshotCatalog } from '../domain/catalog-snapshot.js'

export interface StdioOptions {
  /** From `SERVICE_API_KEY`; may be missing (every call then explains it). */
  apiKey?: string
  baseUrl: string
  apiUrl: string
  /** Logs go to stderr only: stdout carries the protocol. */
  logger: Logger
  /** Tools per `tools/list` page (`--mcp-page-size`); default every tool on one page. */
  pageSize?: number
  /** A tool-catalog snapshot to list and serve too (`mcp --catalog`, issue 35); calls go to the dispatcher. */
  catalog?: SnapshotCatalog
}

/**
 * The local stdio MCP server (`adops-sandbox mcp`, MCP-04): the hosted tool table over stdio,
 * calling the REST API with `Authorization: Bearer <SERVICE_API_KEY>`. Resolves when stdin closes.
 */
export async function runStdioServer(options: StdioOptions): Promise<void> {
  const { logger } = options
  const client = options.apiKey ? new RestClient({ apiKey: options.apiKey, baseUrl: options.baseUrl, apiUrl: options.apiUrl }) : null
  const backend = restBackend(client, { baseUrl: options.baseUrl })
  const server = createMcpServer({
    pageSize: options.pageSize,
    catalog: options.catalog,
    backend: {
      async run(call, context) {
        const outcome = await backend.run(call, context)
        logger.info({ tool: context.tool, status: outcome.status, code: outcome.body.code }, 'tool call')
        return outcome
      },
    },
  })
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve
    process.stdin.once('end', resolve)
  })
  await server.connect(transport)
  if (!client) logger.warn('SERVICE_API_KEY is not set; tool calls will answer with an error until it is')
  logger.info({ base_url: options.baseUrl, api_url: options.apiUrl }, 'adops-sandbox MCP server on stdio')
  await closed
  await server.close()
}
