import express from 'express'
import type { Express, Router } from 'express'
import type { AppContext } from '../http/context.js'
import type { HostedMcpOptions } from './hosted.js'
import { isHostedMcpPath } from './hosted-paths.js'
import { checkPageSize } from './page-size.js'

/**
 * Hosted MCP (`hostedMcp`) loaded on its first request: the MCP SDK and its OAuth server are the
 * largest import of `serve` (≈ 200 ms) and only MCP clients need them, so the sandbox answers its
 * first request that much sooner (bench/README.md, cold start). Same routes, same place in the
 * middleware order; only the first MCP request waits for the load.
 */
export function lazyHostedMcp(options: HostedMcpOptions = {}) {
  // A bad page size fails the build, not the first MCP request.
  checkPageSize(options.pageSize)
  return (app: Express, ctx: AppContext): void => {
    let loaded: Promise<Router> | null = null
    const load = () => (loaded ??= import('./hosted.js').then(({ hostedMcp }) => {
      const router = express.Router()
      hostedMcp(options)(router, ctx)
      return router
    }))
    app.use((req, res, next) => {
      if (!isHostedMcpPath(req.path)) return next()
      load().then((router) => router(req, res, next), next)
    })
  }
}
