import { describe, expect, it } from 'vitest'
import { isHostedMcpPath } from './hosted-paths.js'

describe('hosted MCP paths', () => {
  it.each([
    '/mcp', '/MCP', '/mcp/', '/mcp/anything', '/oauth/sign-in', '/authorize', '/token/', '/register', '/revoke',
    '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp',
  ])('load hosted MCP for %s', (path) => {
    expect(isHostedMcpPath(path)).toBe(true)
  })

  it.each(['/', '/api/v1/tools/run', '/mcpx', '/v1/mcp', '/oauth', '/_sandbox/console', '/connect/abc', '/.well-known/other'])(
    'leave %s alone', (path) => {
      expect(isHostedMcpPath(path)).toBe(false)
    })
})
