import { timingSafeEqual } from 'node:crypto'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { SandboxError, invalidRequest } from '../domain/errors.js'
import type { SandboxOAuthProvider } from './oauth-provider.js'
import type { PendingSignIn } from './oauth-store.js'
import { MAX_TOKEN_ATTEMPTS } from './sign-in-gate.js'
import { ownOrigin } from './request-guard.js'

type Form = Record<string, unknown>

/**
 * `POST /oauth/sign-in` from the sign-in page (sandbox decision, docs/security.md). Refused with
 * 403 `SIGN_IN_REFUSED` unless the form is same-origin (`Origin`, else `Referer`, must be this
 * sandbox's origin when sent) and carries the page's `csrf`. Then `decision`: `unlock` checks
 * `admin_token` and shows the accounts; `allow` issues a code for `account` = `<user_id>
 * <workspace_id>` (when locked, only after the admin token); anything else, missing included, denies.
 */
export function signInHandler(provider: SandboxOAuthProvider): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      const form = (req.body ?? {}) as Form
      checkSameOrigin(req)
      const requestId = typeof form.request === 'string' ? form.request : ''
      if (!requestId) throw invalidRequest('The sign-in form must carry `request`.', 'request')
      const pending = provider.pendingSignIn(requestId)
      if (!sameSecret(form.csrf, pending.csrf)) throw refused('the form was not served by this sandbox for this sign-in (csrf); reload the sign-in page')
      if (form.decision === 'unlock') return unlock(provider, { req, res, form, pending })
      if (form.decision !== 'allow') return redirect(res, provider.completeSignIn(requestId, 'deny'))
      if (provider.gate.locked(req) && !pending.unlocked && !provider.gate.accepts(form.admin_token, req)) {
        throw refused('this sandbox needs its admin token before anyone signs in')
      }
      const [user_id, workspace_id] = typeof form.account === 'string' ? form.account.trim().split(/\s+/) : []
      if (!user_id || !workspace_id) throw invalidRequest('Pick an account: `account` is "<user_id> <workspace_id>".', 'account')
      redirect(res, provider.completeSignIn(requestId, { user_id, workspace_id }))
    } catch (error) {
      next(error instanceof OAuthError ? invalidRequest(error.message) : error)
    }
  }
}

interface UnlockStep {
  req: Request
  res: Response
  form: Form
  pending: PendingSignIn
}

// A wrong token counts against the request; after MAX_TOKEN_ATTEMPTS it is gone.
function unlock(provider: SandboxOAuthProvider, step: UnlockStep): void {
  const { req, res, form, pending } = step
  if (provider.gate.locked(req) && !pending.unlocked) {
    // Past the control plane's guess limit nothing is compared, and the request's own count is spared.
    if (provider.gate.limited(req)) throw refused('too many wrong admin tokens from this address; wait a few seconds and try again')
    if (!provider.gate.accepts(form.admin_token, req)) {
      pending.attempts += 1
      if (pending.attempts >= MAX_TOKEN_ATTEMPTS) provider.store.pending.delete(pending.id)
      throw refused(provider.gate.hasToken ? 'that is not the admin token' : 'the sandbox has no admin token, so nobody can sign in over this connection')
    }
    pending.unlocked = true
  }
  provider.renderSignIn(res, pending)
}

/** A browser's form post names its origin; it must be ours. A client that sends neither header is not a browser. */
function checkSameOrigin(req: Request): void {
  const own = ownOrigin(req).toLowerCase()
  const origin = req.get('origin')
  if (origin !== undefined) {
    if (origin.toLowerCase() !== own) throw refused(`the form was posted from ${origin.slice(0, 100)}, not from this sandbox`)
    return
  }
  const referer = req.get('referer')
  if (referer !== undefined && originOf(referer) !== own) throw refused('the form was posted from another site (Referer)')
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin.toLowerCase()
  } catch {
    return null
  }
}

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function refused(reason: string): SandboxError {
  return new SandboxError('SIGN_IN_REFUSED', { reason })
}

function redirect(res: Response, location: string): void {
  res.status(302).set('Location', location).end()
}
