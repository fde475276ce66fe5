import express from 'express'
import type { Express, NextFunction, Request, Response } from 'express'
import type { AppContext } from './context.js'
import type { ConnectionSeeder } from '../domain/world.js'
import type { AdAccount, LinkState } from '../domain/connections.js'
import { describeLink, linkGone, redeemLink } from '../domain/connections.js'
import { SandboxError } from '../domain/errors.js'
import { param } from './reply.js'
import { escapeHtml } from '../support/html.js'

/**
 * Test seam (issue 36): when set, awaited between the route's check that a link is pending and its
 * redemption, so a race test can hold every request inside that window and release them together.
 */
export const redeemWindow: { hold: (() => Promise<void>) | null } = { hold: null }

/**
 * The connect-link consent page `GET/POST /connect/{token}` on the base host (CONN-02, CONN-03): a
 * fake Google sign-in listing a few ad accounts. Browsers get HTML; API clients (Accept JSON, or a
 * JSON body) get JSON, and 410 `LINK_GONE` for a used or expired link.
 */
export function connectPages(options: { onConnection?: ConnectionSeeder } = {}) {
  return (app: Express, ctx: AppContext): void => {
    const router = express.Router()
    // Scoped to /connect: a bare router.use would parse (and cap at 16 kB) every base-host body.
    router.use('/connect', express.urlencoded({ extended: false, limit: '16kb' }), express.json({ limit: '16kb' }))
    router.get('/connect/:token', (req, res, next) => {
      const view = describeLinkOrNull(ctx, param(req, 'token'))
      if (!view) return notFoundPage(req, res, next)
      if (view.state !== 'pending') return gone(req, res, next, view.state)
      if (wantsJson(req)) {
        res.json({ status: 'pending', platform: view.link.platform, workspace: { id: view.workspace.id, name: view.workspace.name }, expires_at: view.link.expires_at, accounts: view.accounts, sandbox: true })
        return
      }
      res.type('html').send(consentPage({ workspace: view.workspace.name, email: view.owner_email, accounts: view.accounts, action: req.originalUrl, expires_at: view.link.expires_at }))
    })
    router.post('/connect/:token', async (req, res, next) => {
      const token = param(req, 'token')
      const view = describeLinkOrNull(ctx, token)
      if (!view) return notFoundPage(req, res, next)
      if (view.state !== 'pending') return gone(req, res, next, view.state)
      const account = typeof req.body?.account_id === 'string' ? req.body.account_id : undefined
      try {
        if (redeemWindow.hold) await redeemWindow.hold()
        const connection = redeemLink(ctx.deps, { token, account_id: account, onConnection: options.onConnection })
        await ctx.deps.store.commit()
        if (wantsJson(req)) {
          res.status(201).json({ status: 'completed', connection, sandbox: true })
          return
        }
        res.status(201).type('html').send(page('Account connected', `<p>Connected <strong>${escapeHtml(connection.account_name)}</strong> (${escapeHtml(connection.account_id)}) to workspace <strong>${escapeHtml(view.workspace.name)}</strong>.</p><p>You can close this window; the agent will see the account in its connection list.</p>`))
      } catch (error) {
        // A concurrent use won the race between our check above and the redemption.
        if (error instanceof SandboxError && error.code === 'LINK_GONE' && !wantsJson(req)) return gone(req, res, next, 'used')
        next(error)
      }
    })
    app.use(router)
  }
}

function describeLinkOrNull(ctx: AppContext, token: string) {
  try {
    return describeLink(ctx.deps, token)
  } catch (error) {
    if (error instanceof SandboxError && error.code === 'NOT_FOUND') return null
    throw error
  }
}

function gone(req: Request, res: Response, next: NextFunction, state: LinkState): void {
  if (wantsJson(req)) return next(linkGone(state))
  const text = state === 'used'
    ? 'This connect link has already been used. Each link connects one account, once. Ask for a new link if you need to connect another account.'
    : 'This connect link has expired (links are valid for 30 minutes). Ask for a new link.'
  res.status(410).type('html').send(page(state === 'used' ? 'Link already used' : 'Link expired', `<p>${text}</p>`))
}

function notFoundPage(req: Request, res: Response, next: NextFunction): void {
  if (wantsJson(req)) return next(new SandboxError('NOT_FOUND', { what: 'Connect link' }))
  res.status(404).type('html').send(page('Link not found', '<p>This connect link does not exist. Check that you copied the whole address.</p>'))
}

// API clients ask for JSON, or send JSON without asking for HTML; browsers get the page.
function wantsJson(req: Request): boolean {
  const accept = req.get('accept') ?? ''
  if (accept.includes('application/json') && req.accepts(['html', 'json']) === 'json') return true
  if (accept.includes('text/html')) return false
  return Boolean(req.is('application/json'))
}

function consentPage(input: { workspace: string; email: string; accounts: AdAccount[]; action: string; expires_at: string }): string {
  const options = input.accounts.map((a, i) => `<label class="acct"><input type="radio" name="account_id" value="${escapeHtml(a.account_id)}"${i === 0 ? ' checked' : ''}> <span><strong>${escapeHtml(a.account_name)}</strong><br><small>${escapeHtml(a.account_id)} · ${escapeHtml(a.currency)}</small></span></label>`).join('\n')
  return page('Sign in with Google', `
<p class="who">Signed in as <strong>${escapeHtml(input.email)}</strong> <small>(sandbox: no real Google account)</small></p>
<p><strong>adops-sandbox</strong> wants to manage your Google Ads account for workspace <strong>${escapeHtml(input.workspace)}</strong>.</p>
<form method="post" action="${escapeHtml(input.action)}">
<fieldset><legend>Choose an ad account</legend>
${options}
</fieldset>
<button type="submit">Allow and connect</button>
</form>
<p><small>This single-use link expires at ${escapeHtml(input.expires_at)} (sandbox time).</small></p>`)
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · adops-sandbox</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#202124}
h1{font-size:1.4rem;font-weight:500}fieldset{border:1px solid #dadce0;border-radius:8px;padding:.5rem 1rem}
.acct{display:flex;gap:.6rem;align-items:flex-start;padding:.5rem 0}button{margin-top:1rem;background:#1a73e8;color:#fff;border:0;border-radius:4px;padding:.6rem 1.2rem;font-size:1rem}
small{color:#5f6368}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`
}

