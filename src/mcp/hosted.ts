import express from 'express'
import type { IRouter, NextFunction, Request, Response } from 'express'
import type { AppContext } from '../http/context.js'
import { keepRawBody } from '../http/journal.js'
import { JSON_LIMIT } from '../http/base-app.js'
import { SandboxError } from '../domain/errors.js'
import { SandboxOAuthProvider } from './oauth-provider.js'
import { mountOAuth, resourceUrls } from './hosted-oauth.js'
import { MCP_PATH, SIGN_IN_PATH, isHostedMcpPath } from './hosted-paths.js'
import { hostedAuth, hostedCaller } from './hosted-auth.js'
import { McpSessions, handleMcpDelete, handleMcpPost } from './hosted-transport.js'
import { createMcpServer, toolListPage } from './server.js'
import { inProcessBackend } from './in-process-backend.js'
import { fastToolsList } from './fast-tools-list.js'
import { corsFor, hostGuard } from './request-guard.js'
import { SignInGate } from './sign-in-gate.js'

export interface HostedMcpOptions {
  /** Tools per `tools/list` page (`serve --mcp-page-size`); default every tool on one page. */
  pageSize?: number
}

/**
 * Hosted MCP on the base host (DESIGN "Processes"): `{base_url}/mcp` (Streamable HTTP) and the
 * sandbox's OAuth 2.1 server for it (MCP-01..03, MCP-05), mounted on an app or router. `serve`
 * mounts it through `lazyHostedMcp`, which loads this module on the first MCP request. Order on
 * `/mcp`: `Host` and `Origin` (DNS-rebinding protection) → credential (401 with the OAuth challenge,
 * whatever the body) → body parsing → the JSON-RPC transport.
 */
export function hostedMcp(options: HostedMcpOptions = {}) {
  return (app: IRouter, ctx: AppContext): void => {
    const provider = new SandboxOAuthProvider(ctx.deps, { signInPath: SIGN_IN_PATH, gate: new SignInGate(ctx.adminToken, ctx.adminGate) })
    const sessions = new McpSessions(ctx.deps.ids)
    const guardHost = hostGuard(() => ctx.urls.base)
    app.use((req: Request, res: Response, next: NextFunction) => (isHostedMcpPath(req.path) ? guardHost(req, res, next) : next()))
    mountOAuth(app, provider)
    const auth = hostedAuth({ deps: ctx.deps, verifier: provider, urls: resourceUrls, keyHeaders: () => ctx.keyHeaders })
    const server = (res: Response) => () => createMcpServer({
      pageSize: options.pageSize,
      catalog: ctx.deps.snapshot,
      backend: inProcessBackend({ ctx, actor: () => hostedCaller(res).actor }),
    })
    app.use(MCP_PATH, corsFor(() => ctx.keyHeaders))
    const toolList = (cursor: unknown) => toolListPage({ pageSize: options.pageSize, catalog: ctx.deps.snapshot }, cursor)
    // From now on a plain `tools/list` is answered in front of express (`fast-tools-list.ts`).
    ctx.lateFastPaths.set('mcp-tools-list', fastToolsList({ ctx, sessions, toolList }))
    app.post(MCP_PATH, auth, express.json({ limit: JSON_LIMIT, verify: keepRawBody }), (req, res, next) => {
      handleMcpPost(req, res, { sessions, caller: hostedCaller(res), server: server(res), toolList }).catch(next)
    })
    app.delete(MCP_PATH, auth, (req, res) => handleMcpDelete(req, res, sessions, hostedCaller(res)))
    // Server-initiated streams are not offered: GET answers 405 (after authentication), which MCP clients accept.
    app.all(MCP_PATH, auth, (req: Request, _res: Response, next: NextFunction) => {
      next(new SandboxError('METHOD_NOT_ALLOWED', { method: req.method, path: MCP_PATH, allowed: ['POST', 'DELETE'] }, { Allow: 'POST, DELETE' }))
    })
  }
}
