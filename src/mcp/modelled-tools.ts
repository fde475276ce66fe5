import { findEntry } from '../domain/catalog.js'
import { MCP_TOOLS } from './tool-table.js'

const MCP_NAMES = new Set(MCP_TOOLS.map((t) => t.name))

/**
 * Whether the sandbox answers a tool name itself (issue 35 item 4): one of its MCP tools, or a
 * name of its own catalog (scripts, aliases, MCP tool names). A loaded catalog's tool of such a
 * name keeps the sandbox's behaviour; every other tool of the catalog is simulated.
 */
export function isModelledTool(name: string): boolean {
  return MCP_NAMES.has(name) || findEntry(name) !== undefined
}

/** The sandbox's own MCP tool of a name, if any. */
export function modelledMcpTool(name: string) {
  return MCP_NAMES.has(name) ? MCP_TOOLS.find((t) => t.name === name) : undefined
}
