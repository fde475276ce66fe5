import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import express from 'express'
import type { Express, NextFunction, Request, Response } from 'express'

/** Where the console's static files live: next to this module in `src`, or `src/console/public` from `dist`. */
export function consoleAssetsDir(): string {
  const candidates = [new URL('./public/', import.meta.url), new URL('../../../src/console/public/', import.meta.url)]
  const found = candidates.map((u) => fileURLToPath(u)).find((dir) => existsSync(dir))
  if (!found) throw new Error('console assets not found (src/console/public)')
  return found
}

// The console only talks to its own origin; no inline script or style, so a strict policy fits.
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
}

/**
 * Serves the web console shell at `/_sandbox/console/` without the admin token: the files hold no
 * data; every data call the page makes sends `X-Sandbox-Admin` and goes through the control plane.
 */
export function mountConsolePages(app: Express): void {
  const serve = express.static(consoleAssetsDir(), { index: 'index.html', redirect: true, etag: false, lastModified: false })
  app.use('/_sandbox/console', (req: Request, res: Response, next: NextFunction) => {
    res.set(SECURITY_HEADERS)
    serve(req, res, next)
  })
}
