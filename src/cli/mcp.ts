import { Command, Option } from 'commander'
import pino from 'pino'
import { readEnv, readServiceEnv } from '../config.js'
import { mcpPageSizeOption } from './mcp-page-size.js'

/**
 * `adops-sandbox mcp`: the local stdio MCP server (MCP-04). Key from `SERVICE_API_KEY`; targets
 * `SERVICE_BASE_URL` / `SERVICE_API_URL` (default the local sandbox); flags override the URLs.
 */
export function mcpCommand(): Command {
  const service = readServiceEnv()
  return new Command('mcp')
    .description('local MCP server on stdio; calls the REST API with SERVICE_API_KEY (Authorization: Bearer)')
    .addOption(new Option('--base-url <url>', '{base_url} of the service').default(service.baseUrl))
    .addOption(new Option('--api-url <url>', '{api_url} of the service').default(service.apiUrl))
    .addOption(new Option('--log-level <level>', 'pino level on stderr').default(readEnv().logLevel ?? 'info')
      .choices(['fatal', 'error', 'warn', 'info', 'debug', 'silent']))
    .addOption(mcpPageSizeOption())
    .addOption(new Option('--catalog <file>', 'also list and serve the tools of this catalog snapshot (the server must serve the same one; docs/catalogs.md)'))
    .action(async (flags: { baseUrl: string; apiUrl: string; logLevel: string; mcpPageSize?: number; catalog?: string }) => {
      const logger = pino({ level: flags.logLevel }, pino.destination(2))
      // Loaded here: the MCP SDK is a large import every other command can do without.
      const { runStdioServer } = await import('../mcp/stdio.js')
      const catalog = flags.catalog ? await loadStdioCatalog(flags.catalog) : undefined
      await runStdioServer({ apiKey: service.apiKey, baseUrl: flags.baseUrl, apiUrl: flags.apiUrl, logger, pageSize: flags.mcpPageSize, catalog })
      process.exit(0)
    })
}

async function loadStdioCatalog(file: string) {
  const { loadCatalog } = await import('../store/catalog-file.js')
  const { isModelledTool } = await import('../mcp/modelled-tools.js')
  return loadCatalog(file, isModelledTool).catch((error: Error) => {
    process.stderr.write(`adops-sandbox mcp: ${error.message}\n`)
    process.exit(2)
  })
}
