import { createHash, randomBytes } from 'node:crypto'
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'

/**
 * A scripted user at the sandbox sign-in page, for tests and conformance scenarios: dynamic
 * registration, authorization with PKCE, the sign-in form submitted for a chosen user and
 * workspace, and the token exchange. No browser needed.
 */

/** Where the scripted client says it listens; nothing has to: the redirect is read, not followed. */
export const REDIRECT_URI = 'http://127.0.0.1:9/callback'

/** The sign-in form of an HTML page: where it posts, its hidden fields, the account choices, and whether it asks for the admin token. */
export function parseSignInForm(html: string): { action: string; request: string; csrf: string; accounts: string[]; needsToken: boolean } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? ''
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1] ?? ''
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
  const accounts = [...html.matchAll(/name="account" value="([^"]+)"/g)].map((m) => m[1])
  return { action, request, csrf, accounts, needsToken: html.includes('name="admin_token"') }
}

export interface SignInOptions {
  /** Typed into the admin-token step when the page asks for it. */
  adminToken?: string
}

/**
 * Plays the user at the sign-in page, as a browser would (same-origin `Origin` on every post):
 * opens the authorization URL, gives the admin token when the page asks for it, submits the form
 * for `account` (`<user_id> <workspace_id>`) or denies, and returns the redirect back to the client.
 */
export async function submitSignIn(baseUrl: string, authorizationUrl: string | URL, account: string | 'deny', options: SignInOptions = {}): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' })
  if (page.status !== 200) throw new Error(`sign-in page answered ${page.status}: ${page.headers.get('location') ?? await page.text()}`)
  let form = parseSignInForm(await page.text())
  if (form.needsToken && account !== 'deny') {
    const unlocked = await postForm(baseUrl, form.action, { request: form.request, csrf: form.csrf, admin_token: options.adminToken ?? '', decision: 'unlock' })
    if (unlocked.status !== 200) throw new Error(`sign-in answered ${unlocked.status}: ${await unlocked.text()}`)
    form = parseSignInForm(await unlocked.text())
  }
  const base = { request: form.request, csrf: form.csrf }
  const res = await postForm(baseUrl, form.action, account === 'deny' ? { ...base, decision: 'deny' } : { ...base, account, decision: 'allow' })
  if (res.status !== 302) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`)
  return new URL(res.headers.get('location') as string)
}

/** Posts the sign-in form from the page's own origin, as a browser does. */
export function postForm(baseUrl: string, action: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(action, baseUrl), {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseUrl).origin, ...headers }, body: new URLSearchParams(fields),
  })
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** The whole flow by hand (registration, authorize, sign-in, token): returns the token response. */
export async function signIn(baseUrl: string, options: { account: string; scope?: string } & SignInOptions): Promise<{ tokens: OAuthTokens; clientId: string }> {
  const registered = await postJson(`${baseUrl}/register`, { client_name: 'raw test', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' })
  const clientId = registered.client_id as string
  const { verifier, challenge } = pkcePair()
  const authorize = new URL(`${baseUrl}/authorize`)
  const params: Record<string, string> = {
    response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge,
    code_challenge_method: 'S256', state: 'st-1', resource: `${baseUrl}/mcp`, ...(options.scope ? { scope: options.scope } : {}),
  }
  for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v)
  const back = await submitSignIn(baseUrl, authorize, options.account, options)
  const code = back.searchParams.get('code')
  if (!code) throw new Error(`no code in ${back.href}`)
  const tokens = await tokenRequest(baseUrl, { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI, resource: `${baseUrl}/mcp` })
  if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}: ${JSON.stringify(tokens.body)}`)
  return { tokens: tokens.body as unknown as OAuthTokens, clientId }
}

export async function tokenRequest(baseUrl: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function postJson(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (res.status >= 300) throw new Error(`${url} answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as Record<string, unknown>
}
