import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

/** Pages of `tools/list` followed at most (a server that never stops paging is an error, not a hang). */
export const MAX_CATALOG_PAGES = 100

export interface PullOptions {
  /** The hosted MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  url: string
  /** The API key, sent under every name in `keyHeaders` (`Authorization` gets `Bearer <key>`). */
  key?: string
  /** Header names that carry the key; default `X-Service-Key`. */
  keyHeaders?: readonly string[]
  timeoutMs?: number
}

export interface PulledCatalog {
  tools: Tool[]
  pages: number
  server: { name: string; version: string } | null
}

// The SDK client's Tool schema keeps only the annotation keys it knows; a snapshot must keep the
// server's own (`effect`, `externalMutation`, …), so the pages are read with a loose schema.
const PAGE = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })), nextCursor: z.string().optional() })

/** The headers a key travels in: each named header, `Authorization` as a Bearer token. */
export function keyHeadersOf(key: string | undefined, names: readonly string[] = ['X-Service-Key']): Record<string, string> {
  if (!key) return {}
  return Object.fromEntries(names.map((name) => [name, name.toLowerCase() === 'authorization' ? `Bearer ${key}` : key]))
}

/**
 * A live server's whole `tools/list` (issue 35 item 5): connects over Streamable HTTP, follows
 * `nextCursor` until the last page, and returns every tool exactly as the server sent it. The key
 * goes only into request headers; nothing here writes it anywhere.
 */
export async function pullTools(options: PullOptions): Promise<PulledCatalog> {
  const client = new Client({ name: 'adops-sandbox-catalog-pull', version: '0.1.0' })
  const transport = new StreamableHTTPClientTransport(new URL(options.url), { requestInit: { headers: keyHeadersOf(options.key, options.keyHeaders) } })
  const timeout = options.timeoutMs ?? 30_000
  await client.connect(transport, { timeout })
  try {
    const tools: Tool[] = []
    const seen = new Set<string>()
    let cursor: string | undefined
    let pages = 0
    do {
      if (pages >= MAX_CATALOG_PAGES) throw new Error(`tools/list still had a nextCursor after ${MAX_CATALOG_PAGES} pages; stopped`)
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, PAGE, { timeout })
      pages++
      tools.push(...(page.tools as Tool[]))
      cursor = page.nextCursor
      if (cursor !== undefined && seen.has(cursor)) throw new Error(`tools/list returned the cursor ${JSON.stringify(cursor)} twice; stopped`)
      if (cursor !== undefined) seen.add(cursor)
    } while (cursor !== undefined)
    const version = client.getServerVersion()
    return { tools, pages, server: version ? { name: version.name, version: version.version } : null }
  } finally {
    await client.close().catch(() => undefined)
  }
}

/** A URL safe to record: no credentials, query or fragment (a key may ride in any of them). */
export function recordableUrl(url: string): string {
  const u = new URL(url)
  return `${u.protocol}//${u.host}${u.pathname}`
}
