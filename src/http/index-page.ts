import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import express from 'express'
import type { Express, Request, Response } from 'express'
import type { AppContext } from './context.js'
import { escapeHtml } from '../support/html.js'

/** Where the manual lives: `docs/` of the repository or the installed package (from `src` or `dist`). */
export function docsDir(): string | null {
  const candidates = [new URL('../../docs/', import.meta.url), new URL('../../../docs/', import.meta.url)]
  return candidates.map((u) => fileURLToPath(u)).find((dir) => existsSync(`${dir}getting-started.md`)) ?? null
}

/**
 * The map of a sandbox that `GET /` answers on either host (issue 18). The person's side (console,
 * control plane, the contract it serves) is listed only to a request that carries the person's credential (the admin token
 * or a console session): an agent, with a key or without, is not pointed at it (issue 33).
 */
export function sandboxIndex(ctx: AppContext, person = false): Record<string, string> {
  const { base, api } = ctx.urls
  return {
    name: 'adops-sandbox',
    base_url: base,
    api_url: api,
    ...(person ? { console: `${base}/_sandbox/console/`, control_plane: `${base}/_sandbox`, openapi: `${base}/_sandbox/openapi.yaml` } : {}),
    mcp: `${base}/mcp`,
    docs: `${base}/docs/getting-started.md`,
  }
}

/**
 * `GET /` on either host: a small JSON index of the sandbox, or an HTML page for a browser. Public:
 * it names URLs, never data or keys, and the person's side only to the person (`sandboxIndex`). On the base host the manual is served
 * read-only at `/docs/*.md` (and its pictures).
 */
export function mountIndex(host: 'base' | 'api') {
  return (app: Express, ctx: AppContext): void => {
    app.get('/', (req: Request, res: Response) => {
      const index = sandboxIndex(ctx, !ctx.adminGate.open && ctx.adminGate.admits(req))
      res.set('Cache-Control', 'no-cache')
      if (req.accepts(['json', 'html']) === 'html') {
        res.type('html').send(page(index, host))
        return
      }
      res.json({ ...index, host })
    })
    const dir = docsDir()
    if (host !== 'base' || !dir) return
    const docs = express.static(dir, { index: false, redirect: false, etag: false, lastModified: false })
    app.use('/docs', (req, res, next) => {
      if (!/^\/[\w-]+\.(md|png)$/.test(req.path)) return next()
      if (req.path.endsWith('.md')) res.type('text/markdown; charset=utf-8')
      res.set('X-Content-Type-Options', 'nosniff')
      docs(req, res, next)
    })
  }
}

function page(index: Record<string, string>, host: string): string {
  const rows = Object.entries(index).filter(([k]) => k !== 'name')
    .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td><a href="${escapeHtml(v)}">${escapeHtml(v)}</a></td></tr>`).join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>adops-sandbox</title></head><body><main><h1>adops-sandbox</h1>`
    + `<p>This is the ${host === 'base' ? 'base host (dispatcher, keys, connections, MCP)' : 'api host (backend REST under /v1)'} of a local sandbox.</p>`
    + `<table>${rows}</table></main></body></html>`
}
