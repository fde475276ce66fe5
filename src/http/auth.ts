import type { Request } from 'express'
import type { Actor, Caller } from '../domain/access.js'
import { authorize, markUsed } from '../domain/access.js'
import type { AppContext } from './context.js'
import type { Surface } from './credentials.js'
import { authenticateRequest } from './credential-hints.js'
import { throwDeferredBodyError } from './body.js'

// The key that authenticated a request, marked used only once the reply succeeds (see `handle`).
const callers = new WeakMap<Request, () => void>()

/** Authenticate the request's one credential on `surface` (AUTH-01..03). */
export function callerOf(ctx: AppContext, req: Request, surface: Surface): Caller {
  const caller = authenticateRequest(ctx.deps, req, surface, ctx.keyHeaders)
  callers.set(req, () => markUsed(ctx.deps, caller))
  return caller
}

/**
 * Authenticate, then authorize the scope and resolve the workspace (AUTH-03, AUTH-04, KEY-10..12);
 * only then does a malformed body speak (RULES.md Authentication: anonymous callers get 401 first).
 */
export function actorOf(ctx: AppContext, req: Request, surface: Surface, scope: string | null): Actor {
  const actor = authorize(ctx.deps, callerOf(ctx, req, surface), scope)
  throwDeferredBodyError(req)
  return actor
}

/** Sets `last_used_at` of the key that made a successful request; a refused one changes nothing. */
export function markCallerUsed(req: Request): void {
  callers.get(req)?.()
  callers.delete(req)
}
