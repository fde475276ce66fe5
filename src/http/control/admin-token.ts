import { createHash, timingSafeEqual } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import { SandboxError } from '../../domain/errors.js'

/**
 * The control plane needs `X-Sandbox-Admin: <token>` when a token is configured (DESIGN); a missing
 * or wrong one is 401 `ADMIN_TOKEN_REQUIRED`.
 */
export function requireAdminToken(token: string | null) {
  const expected = token === null ? null : digest(token)
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!expected) return next()
    next(sameToken(req.get('x-sandbox-admin') ?? '', expected) ? undefined : new SandboxError('ADMIN_TOKEN_REQUIRED'))
  }
}

/**
 * Compares SHA-256 digests in constant time: equal lengths whatever was sent, so a header of the
 * token's length in characters but not in bytes (non-ASCII) cannot make `timingSafeEqual` throw.
 */
function sameToken(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected)
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}
