import type { CatalogDrift } from '../../conformance/catalog-drift.js'
import { compareCatalogs } from '../../conformance/catalog-drift.js'
import { createSandbox } from '../create-sandbox.js'
import { pullTools } from '../client/mcp-catalog.js'

export interface CatalogDriftOptions {
  /** The target's hosted MCP endpoint. */
  mcpUrl: string
  /** The target's key (never reported). */
  key?: string
  /** Header names for the key on the target; default X-Service-Key. */
  keyHeaders?: readonly string[]
  /** The snapshot the sandbox side serves (`--catalog`); default none (the sandbox's own tools). */
  catalog?: string
}

export type CatalogDriftOutcome = { drift: CatalogDrift } | { error: string }

/**
 * The catalog half of `conform --drift` (issue 35 item 5): the `tools/list` of a fresh in-process
 * sandbox (serving `catalog` when given) against the target's, both read over MCP.
 */
export async function catalogDrift(options: CatalogDriftOptions): Promise<CatalogDriftOutcome> {
  const sandbox = await createSandbox(options.catalog ? { catalog: options.catalog } : {})
  let mine
  try {
    mine = await pullTools({ url: `${sandbox.baseUrl}/mcp`, key: sandbox.keys.owner })
  } finally {
    await sandbox.close()
  }
  try {
    const theirs = await pullTools({ url: options.mcpUrl, key: options.key, keyHeaders: options.keyHeaders })
    return { drift: compareCatalogs(mine.tools, theirs.tools) }
  } catch (error) {
    const message = (error as Error).message
    return { error: options.key ? message.split(options.key).join('***') : message }
  }
}
