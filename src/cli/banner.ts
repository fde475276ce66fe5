import type { WorldKey } from '../domain/world.js'
import { ALL_SCOPES } from '../domain/scopes.js'

export interface BannerInfo {
  base_url: string
  api_url: string
  state: string
  resumed: boolean
  world: string
  seed: number
  /** `token`: /_sandbox and the console need `admin_token`; `open`: anyone who reaches the port may use them. */
  control_plane: 'token' | 'open'
  /** The X-Sandbox-Admin value (the person's, never the agent's); null when open. */
  admin_token: string | null
  /** Where the generated token was written (mode 0600); null for memory state or a given token. */
  admin_token_file: string | null
  /** The console: a one-time sign-in link when a token is required. */
  console_url: string
  keys: Array<Omit<WorldKey, 'value'>>
}

/**
 * The human start-up banner. Key values are never printed: they are documented in the world file.
 * The admin token is: it is the person's, for the person at this terminal (issue 33).
 */
export function renderBanner(info: BannerInfo): string {
  const lines = [
    '',
    `  adops-sandbox  world "${info.world}" (seed ${info.seed})${info.resumed ? ', resumed from state' : ''}`,
    '',
    `  base_url   ${info.base_url}    dispatcher, keys, connections, MCP`,
    `  api_url    ${info.api_url}    backend REST (/v1)`,
    ...controlLines(info),
    `  mcp        ${info.base_url}/mcp    hosted MCP (X-Service-Key or OAuth)`,
    `  state      ${info.state}`,
    '',
    '  keys (values: fixtures/worlds/<world>.yaml, docs/getting-started.md):',
    ...info.keys.map((k) => `    ${k.name.padEnd(16)} ${`${k.prefix}…`.padEnd(16)} ${(k.workspace_id ?? 'unpinned').padEnd(14)} ${scopeText(k.scopes)}`),
    '',
    '  Ctrl-C stops and flushes state.',
    '',
  ]
  return `${lines.join('\n')}\n`
}

// The person's side: how to reach it, or a warning that anyone can.
function controlLines(info: BannerInfo): string[] {
  if (info.admin_token === null) {
    return [
      `  control    ${info.base_url}/_sandbox`,
      `  console    ${info.console_url}    review queue, audit, journal, world`,
      '  WARNING    --open-control-plane: anyone who can reach this port can approve held writes, reset the world and mint keys.',
    ]
  }
  return [
    `  control    ${info.base_url}/_sandbox    send X-Sandbox-Admin: <admin token>`,
    `  token      ${info.admin_token}${info.admin_token_file ? `    (also in ${info.admin_token_file}, mode 0600)` : ''}`,
    `  console    ${info.console_url}`,
    '             (one-time sign-in link for your browser: review queue, audit, journal, world)',
  ]
}

function scopeText(scopes: string[]): string {
  return ALL_SCOPES.every((s) => scopes.includes(s)) ? 'all scopes' : scopes.join(' ')
}
