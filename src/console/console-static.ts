import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
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
  // uPlot (a runtime dependency) from its own dist folder: same origin, so the CSP holds and it works offline.
  const vendor = express.static(uplotDistDir(), { index: false, redirect: false, etag: false, lastModified: false })
  app.use('/_sandbox/console/vendor', (req: Request, res: Response, next: NextFunction) => {
    if (!VENDOR_FILES.has(req.path)) return next()
    res.set(SECURITY_HEADERS)
    vendor(req, res, next)
  })
  app.use('/_sandbox/console', (req: Request, res: Response, next: NextFunction) => {
    res.set(SECURITY_HEADERS)
    serve(req, res, next)
  })
}

// Only the two files the page loads; the rest of node_modules stays out of reach.
const VENDOR_FILES = new Set(['/uPlot.iife.min.js', '/uPlot.min.css'])

/** `node_modules/uplot/dist`, resolved the way Node resolves the package (works from `src` and `dist`). */
export function uplotDistDir(): string {
  return dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'))
}
