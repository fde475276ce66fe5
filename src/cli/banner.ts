import type { WorldKey } from '../domain/world.js'
import { ALL_SCOPES } from '../domain/scopes.js'

export interface BannerInfo {
  base_url: string
  api_url: string
  state: string
  resumed: boolean
  world: string
  seed: number
  admin_token: boolean
  keys: Array<Omit<WorldKey, 'value'>>
}

/** The human start-up banner. Key values are never printed: they are documented in the world file. */
export function renderBanner(info: BannerInfo): string {
  const lines = [
    '',
    `  adops-sandbox  world "${info.world}" (seed ${info.seed})${info.resumed ? ', resumed from state' : ''}`,
    '',
    `  base_url   ${info.base_url}    dispatcher, keys, connections, MCP`,
    `  api_url    ${info.api_url}    backend REST (/v1)`,
    `  control    ${info.base_url}/_sandbox${info.admin_token ? '    (X-Sandbox-Admin required)' : ''}`,
    `  console    ${info.base_url}/_sandbox/console/    review queue, audit, journal, world`,
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

function scopeText(scopes: string[]): string {
  return ALL_SCOPES.every((s) => scopes.includes(s)) ? 'all scopes' : scopes.join(' ')
}
