/**
 * The only reader of `process.env`. Each serve flag has an environment equivalent; flags win.
 */
export interface EnvConfig {
  host?: string
  port?: string
  apiPort?: string
  state?: string
  world?: string
  seed?: string
  adminToken?: string
  logLevel?: string
  journalFile?: string
  journalMaxBytes?: string
  durability?: string
  mcpPageSize?: string
  /** Comma-separated key header names (`serve --key-header`). */
  keyHeaders?: string
}

export const ENV_NAMES: Record<keyof EnvConfig, string> = {
  host: 'SANDBOX_HOST',
  port: 'SANDBOX_PORT',
  apiPort: 'SANDBOX_API_PORT',
  state: 'SANDBOX_STATE',
  world: 'SANDBOX_WORLD',
  seed: 'SANDBOX_SEED',
  adminToken: 'SANDBOX_ADMIN_TOKEN',
  logLevel: 'SANDBOX_LOG_LEVEL',
  journalFile: 'SANDBOX_JOURNAL_FILE',
  journalMaxBytes: 'SANDBOX_JOURNAL_MAX_BYTES',
  durability: 'SANDBOX_DURABILITY',
  mcpPageSize: 'SANDBOX_MCP_PAGE_SIZE',
  keyHeaders: 'SANDBOX_KEY_HEADERS',
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  const out: EnvConfig = {}
  for (const [field, name] of Object.entries(ENV_NAMES) as Array<[keyof EnvConfig, string]>) {
    const value = env[name]
    if (value !== undefined && value !== '') out[field] = value
  }
  return out
}

/**
 * Removes empty `SANDBOX_*` variables, so they count as unset everywhere: commander reads the
 * variables its options name, and an `export SANDBOX_PORT=` must not bind port 0.
 */
export function dropEmptyEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of Object.values(ENV_NAMES)) if (env[name] === '') delete env[name]
}

/** Settings of the local stdio MCP server and clients (MCP-04). */
export function readServiceEnv(env: NodeJS.ProcessEnv = process.env): { apiKey?: string; baseUrl: string; apiUrl: string } {
  return {
    apiKey: env.SERVICE_API_KEY || undefined,
    baseUrl: env.SERVICE_BASE_URL || 'http://127.0.0.1:4010',
    apiUrl: env.SERVICE_API_URL || 'http://127.0.0.1:4011',
  }
}
