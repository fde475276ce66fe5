import type { Response } from 'express'
import type { Deps } from '../domain/ports.js'
import { escapeHtml } from '../support/html.js'

/** One row of the sign-in page: a user acting in one of their active workspaces. */
export interface SignInChoice {
  user_id: string
  user_name: string
  email: string
  workspace_id: string
  workspace_name: string
  role: string
}

/** Every (user, workspace) pair with an active membership: who may sign in where. */
export function signInChoices(deps: Deps): SignInChoice[] {
  return deps.store.memberships.filter((m) => m.status === 'active').flatMap((m) => {
    const user = deps.store.users.get(m.user_id)
    const workspace = deps.store.workspaces.get(m.workspace_id)
    if (!user || !workspace) return []
    return [{ user_id: user.id, user_name: user.name, email: user.email, workspace_id: workspace.id, workspace_name: workspace.name, role: m.role }]
  })
}

export interface SignInPage {
  action: string
  requestId: string
  /** The form's anti-CSRF value, echoed back in a hidden field. */
  csrf: string
  clientName: string
  scopes: string[]
  /** The accounts to pick from; null while the admin token has not been given (nothing is listed). */
  choices: SignInChoice[] | null
  /** Whether an admin token exists (off loopback without one, nobody can sign in). */
  tokenConfigured: boolean
}

/**
 * Headers of the sign-in page: it cannot be framed (clickjacking), loads nothing from elsewhere,
 * is never cached, and its form posts carry a same-origin `Origin`/`Referer` only to us.
 */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
}

/** Sends the sign-in page with `PAGE_HEADERS`. */
export function sendSignInPage(res: Response, status: number, page: SignInPage): void {
  res.status(status).set(PAGE_HEADERS).type('html').send(renderSignInPage(page))
}

/**
 * The sandbox sign-in page (no passwords: it is a sandbox). Locked (`choices` null): one password
 * field `admin_token` and `decision=unlock`. Unlocked: one radio button per `user_id workspace_id`
 * pair named `account`, and `decision=allow` or `deny`. Every post carries `request` and `csrf`.
 */
export function renderSignInPage(page: SignInPage): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to the ad-ops sandbox</title>
<style>body{font:15px system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
.choice{display:block;padding:.5rem;border:1px solid #ccc;border-radius:6px;margin:.4rem 0}
code{font-size:.85em;color:#555}button{padding:.5rem 1.2rem;margin-right:.5rem}</style></head>
<body>
  <h1>Sign in to the ad-ops sandbox</h1>
  <p><strong>${escapeHtml(page.clientName)}</strong> asks to act as a sandbox user in one workspace, with the scopes:</p>
  <p>${page.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</p>
  <form method="post" action="${escapeHtml(page.action)}">
    <input type="hidden" name="request" value="${escapeHtml(page.requestId)}">
    <input type="hidden" name="csrf" value="${escapeHtml(page.csrf)}">
    ${page.choices ? accountsStep(page.choices) : tokenStep(page.tokenConfigured)}
  </form>
  <p><small>Sandbox sign-in: no password. The token is bound to the chosen user and workspace.</small></p>
</body></html>`
}

function accountsStep(choices: SignInChoice[]): string {
  const rows = choices.map((c, i) => `
      <label class="choice"><input type="radio" name="account" value="${escapeHtml(`${c.user_id} ${c.workspace_id}`)}"${i === 0 ? ' checked' : ''}>
        <strong>${escapeHtml(c.user_name)}</strong> &lt;${escapeHtml(c.email)}&gt; in <strong>${escapeHtml(c.workspace_name)}</strong>
        <code>${escapeHtml(c.workspace_id)}</code> (${escapeHtml(c.role)})</label>`).join('')
  return `<fieldset><legend>Sign in as</legend>${rows || '<p>No sandbox user has a workspace.</p>'}
    </fieldset>
    <p><button type="submit" name="decision" value="allow">Sign in</button>
    <button type="submit" name="decision" value="deny">Deny</button></p>`
}

function tokenStep(tokenConfigured: boolean): string {
  const help = tokenConfigured
    ? 'This sandbox is protected: enter its admin token (the <code>--admin-token</code> it was started with) to see who you can sign in as.'
    : 'This connection is not from this machine and the sandbox has no admin token, so nobody can sign in from here. Restart it with <code>--admin-token</code>, or sign in from the machine it runs on.'
  return `<p>${help}</p>
    <p><label>Admin token <input type="password" name="admin_token" autocomplete="off" required></label></p>
    <p><button type="submit" name="decision" value="unlock">Continue</button>
    <button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>`
}
