/** Where hosted MCP lives on the base host (MCP-01..03); no MCP SDK import, so `serve` can route without loading it. */
export const MCP_PATH = '/mcp'
export const SIGN_IN_PATH = '/oauth/sign-in'

/** Paths the SDK's auth router answers (authorization server + protected-resource metadata). */
export const OAUTH_PATHS: ReadonlySet<string> = new Set([
  '/authorize', '/token', '/register', '/revoke',
  '/.well-known/oauth-authorization-server', `/.well-known/oauth-protected-resource${MCP_PATH}`,
])

/**
 * Whether hosted MCP or its OAuth server may answer `path`, matched as loosely as express routes
 * match (any case, a trailing slash, anything under `/mcp`); other paths never need the SDK.
 */
export function isHostedMcpPath(path: string): boolean {
  const p = path.toLowerCase().replace(/\/$/, '')
  return p === MCP_PATH || p.startsWith(`${MCP_PATH}/`) || p === SIGN_IN_PATH || OAUTH_PATHS.has(p)
}
