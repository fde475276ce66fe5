import type { Request } from 'express'
import type { Actor, Caller } from '../domain/access.js'
import { authenticate, authorize } from '../domain/access.js'
import type { AppContext } from './context.js'
import type { Surface } from './credentials.js'
import { readCredential } from './credentials.js'

/** Authenticate the request's one credential on `surface` (AUTH-01..03). */
export function callerOf(ctx: AppContext, req: Request, surface: Surface): Caller {
  return authenticate(ctx.deps, readCredential(req, surface))
}

/** Authenticate, then authorize the scope and resolve the workspace (AUTH-04, KEY-10..12). */
export function actorOf(ctx: AppContext, req: Request, surface: Surface, scope: string | null): Actor {
  return authorize(ctx.deps, callerOf(ctx, req, surface), scope)
}
