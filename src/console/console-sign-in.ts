import type { Express, Request, Response } from 'express'
import type { AppContext } from '../http/context.js'
import type { Route } from '../http/reply.js'
import { SandboxError } from '../domain/errors.js'
import { CONSOLE_COOKIE } from '../http/control/console-sessions.js'
import { escapeHtml } from '../support/html.js'

/** Where a one-time console sign-in link points; the ticket is its `ticket` query value. */
export const SIGN_IN_PATH = '/_sandbox/console/sign-in'

const HINT = 'Open the console link the sandbox printed at start, or ask for a new one with '
  + 'POST /_sandbox/console/links (X-Sandbox-Admin).'

/** A one-time console sign-in link for a ticket of `AdminGate.sessions`. */
export function consoleLink(baseUrl: string, ticket: string): string {
  return `${baseUrl}${SIGN_IN_PATH}?ticket=${encodeURIComponent(ticket)}`
}

/**
 * `GET /_sandbox/console/sign-in?ticket=…` (issue 33): a person opens the link from the banner once;
 * it sets an HttpOnly, SameSite=Strict session cookie for `/_sandbox` and redirects to the console.
 * An unknown or used ticket is 401 (HTML for a browser, JSON otherwise) and spends one of the
 * client's guesses. Mounted before the control plane: the link is the credential.
 */
export function consoleSignIn(app: Express, ctx: AppContext): void {
  app.get(SIGN_IN_PATH, (req: Request, res: Response) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' })
    const gate = ctx.adminGate
    const ticket = typeof req.query.ticket === 'string' ? req.query.ticket : ''
    // A client out of guesses is refused before its ticket is looked at (a guessing loop learns nothing).
    const limited = gate.open ? null : gate.limited(req)
    const session = gate.open || limited || !ticket ? null : gate.sessions.redeem(ticket)
    if (gate.open || session) {
      if (session) res.cookie(CONSOLE_COOKIE, session, { httpOnly: true, sameSite: 'strict', path: '/_sandbox', secure: req.secure })
      res.redirect(303, '/_sandbox/console/')
      return
    }
    if (!limited) gate.spendGuess(req)
    const error = limited ?? new SandboxError('CONSOLE_LINK_INVALID', { hint: HINT })
    if (req.accepts(['json', 'html']) === 'html') {
      res.status(error.status).set(error.headers).type('html').send(refusalPage(error.message))
      return
    }
    res.status(error.status).set(error.headers).json(error.toBody())
  })
}

/** `POST /_sandbox/console/links` (admin token): a fresh one-time console sign-in link. */
export function consoleLinkRoutes(ctx: AppContext): Route[] {
  return [{
    method: 'post',
    path: '/console/links',
    handler: () => ({ status: 201, body: { url: consoleLink(ctx.urls.base, ctx.adminGate.sessions.issueTicket()), uses: 1 } }),
  }]
}

function refusalPage(message: string): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console sign-in</title></head>'
    + `<body><main><h1>Console sign-in</h1><p>${escapeHtml(message)}</p></main></body></html>`
}
