import { createHash, timingSafeEqual } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import { SandboxError } from '../../domain/errors.js'

/**
 * The control plane needs `X-Sandbox-Admin: <token>` when a token is configured (DESIGN); a missing
 * or wrong one is 401 `ADMIN_TOKEN_REQUIRED`.
 */
export function requireAdminToken(token: string | null) {
  const accepts = adminTokenCheck(token)
  return (req: Request, _res: Response, next: NextFunction): void => {
    next(accepts(req.get('x-sandbox-admin')) ? undefined : new SandboxError('ADMIN_TOKEN_REQUIRED'))
  }
}

/**
 * Whether an `X-Sandbox-Admin` value opens the control plane: anything does when no token is
 * configured. The check `requireAdminToken` and the control plane's fast path (`fast-reviews.ts`) share.
 */
export function adminTokenCheck(token: string | null): (given: string | undefined) => boolean {
  const expected = token === null ? null : digest(token)
  return (given) => !expected || sameToken(given ?? '', expected)
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
