import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { SnapshotCatalog } from '../domain/catalog-snapshot.js'
import { parseSnapshot } from '../domain/catalog-snapshot.js'

/** Where a catalog comes from: a file path, or a `tools/list` result already parsed (`createSandbox({ catalog })`). */
export type CatalogSource = string | unknown[] | { tools: unknown[] }

/**
 * Loads a tool-catalog snapshot (issue 35 item 4): a JSON file holding an MCP `tools/list` result,
 * or the parsed value. `modelled` names the tools the sandbox answers itself; the rest are
 * simulated. A missing or malformed file is an error naming the file and the problem.
 */
export async function loadCatalog(source: CatalogSource, modelled: (name: string) => boolean): Promise<SnapshotCatalog> {
  // Ajv is loaded only when a catalog is: a sandbox without one never pays for it at start-up.
  const { compileToolSchema: compile } = await import('../support/tool-schema.js')
  if (typeof source !== 'string') return parseSnapshot(source, { source: 'catalog', modelled, compile })
  const file = resolve(source)
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`Catalog ${file} cannot be read: ${error.code === 'ENOENT' ? 'no such file' : error.message}`)
  })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`Catalog ${file} is not JSON: ${(error as Error).message}`)
  }
  return parseSnapshot(json, { source: file, modelled, compile })
}
