import { InvalidArgumentError, Option } from 'commander'
import { ENV_NAMES } from '../config.js'

/**
 * `--mcp-page-size <n>` for `serve` (hosted `/mcp`) and `mcp` (stdio): tools per `tools/list`
 * page, to rehearse `nextCursor` paging. Unset: every tool on one page (docs/mcp.md).
 */
export function mcpPageSizeOption(): Option {
  return new Option('--mcp-page-size <n>', 'tools per MCP tools/list page, to rehearse nextCursor paging (default: all tools on one page)')
    .argParser(parseMcpPageSize).env(ENV_NAMES.mcpPageSize)
}

export function parseMcpPageSize(value: string): number {
  const n = Number(value)
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a page size is a positive integer (tools per tools/list page)')
  return n
}
