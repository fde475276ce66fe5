import { timingSafeEqual } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import { SandboxError } from '../../domain/errors.js'

/** The control plane needs `X-Sandbox-Admin: <token>` when a token is configured (DESIGN). */
export function requireAdminToken(token: string | null) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!token) return next()
    const given = req.get('x-sandbox-admin') ?? ''
    const ok = given.length === token.length && timingSafeEqual(Buffer.from(given), Buffer.from(token))
    next(ok ? undefined : new SandboxError('ADMIN_TOKEN_REQUIRED'))
  }
}
