import type { NextFunction, Request, Response, Router } from 'express'
import type { z } from 'zod'
import type { Store } from '../domain/ports.js'
import { SandboxError, invalidRequest } from '../domain/errors.js'
import { redactText } from '../support/redact.js'
import { markCallerUsed } from './auth.js'
import { replyBody } from './request-id.js'

/** What a route returns; `handle` commits state before sending it. */
export interface Reply {
  status?: number
  body: unknown
  headers?: Record<string, string>
}

export type RouteHandler = (req: Request, res: Response) => Reply | Promise<Reply>

export interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  path: string
  handler: RouteHandler
}

/**
 * Wraps a handler so a change is answered only after the write that contains it is on disk
 * (group commit), then renders the reply as JSON.
 */
export function handle(store: Store, handler: RouteHandler) {
  return async (req: Request, res: Response): Promise<void> => {
    const reply = await handler(req, res)
    if ((reply.status ?? 200) < 400) markCallerUsed(req)
    await store.commit()
    if (reply.headers) res.set(reply.headers)
    const status = reply.status ?? 200
    res.status(status).json(replyBody(status, reply.body, req, res))
  }
}

/**
 * Mounts routes and answers 405 with `Allow` for a known path with another method. Each path is one
 * router layer (methods and the 405 fallback share it), so a request matches each path once.
 */
export function mountRoutes(router: Router, store: Store, routes: Route[]): void {
  const byPath = new Map<string, Route[]>()
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route])
  for (const [path, group] of byPath) {
    const mounted = router.route(path)
    for (const route of group) mounted[route.method](handle(store, route.handler))
    const allowed = group.map((r) => r.method.toUpperCase())
    if (allowed.includes('GET')) allowed.push('HEAD')
    mounted.all((req: Request, _res: Response, next: NextFunction) => {
      const shown = redactText(req.baseUrl + req.path)
      next(new SandboxError('METHOD_NOT_ALLOWED', { method: req.method, path: shown, allowed }, { Allow: allowed.join(', ') }))
    })
  }
}

/** Validates a JSON body (or query) against a schema; a bad field is 400 naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'Request body'): z.output<S> {
  if (what === 'Request body' && (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw invalidRequest(`${what} must be a JSON object (Content-Type: application/json)`)
  }
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue.path.map(String).join('.')
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]
    throw invalidRequest(`unknown field \`${field ? `${field}.` : ''}${key}\``, field ? `${field}.${key}` : key)
  }
  throw invalidRequest(field ? `invalid field \`${field}\`: ${issue.message}` : issue.message, field || undefined)
}

/** A path parameter as a single string (express 5 can give arrays for wildcards). */
export function param(req: Request, name: string): string {
  const value = req.params[name] as string | string[] | undefined
  return Array.isArray(value) ? value.join('/') : (value ?? '')
}
