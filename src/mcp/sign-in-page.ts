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
  clientName: string
  scopes: string[]
  choices: SignInChoice[]
}

/**
 * The sandbox sign-in page (no passwords: it is a sandbox). A form with one radio button per
 * `user_id workspace_id` pair named `account`; submitting it posts `request` and `account` (or
 * `deny`) to the sign-in endpoint, which redirects back to the client with a code.
 */
export function renderSignInPage(page: SignInPage): string {
  const rows = page.choices.map((c, i) => `
      <label class="choice"><input type="radio" name="account" value="${escapeHtml(`${c.user_id} ${c.workspace_id}`)}"${i === 0 ? ' checked' : ''}>
        <strong>${escapeHtml(c.user_name)}</strong> &lt;${escapeHtml(c.email)}&gt; in <strong>${escapeHtml(c.workspace_name)}</strong>
        <code>${escapeHtml(c.workspace_id)}</code> (${escapeHtml(c.role)})</label>`).join('')
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
    <fieldset><legend>Sign in as</legend>${rows || '<p>No sandbox user has a workspace.</p>'}
    </fieldset>
    <p><button type="submit" name="decision" value="allow">Sign in</button>
    <button type="submit" name="decision" value="deny">Deny</button></p>
  </form>
  <p><small>Sandbox sign-in: no password. The token is bound to the chosen user and workspace.</small></p>
</body></html>`
}

