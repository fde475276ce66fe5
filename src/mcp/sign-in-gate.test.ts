import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Request } from 'express'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { INITIALIZE, call, connectHttp, rpc } from './mcp-test-support.js'
import { REDIRECT_URI, parseSignInForm, pkcePair, postForm, signIn, tokenRequest } from './sign-in-client.js'
import { MAX_TOKEN_ATTEMPTS, SignInGate } from './sign-in-gate.js'

const TOKEN = 'sandbox-admin-Tø-9'
let sb: RunningSandbox
beforeAll(async () => {
  // Many wrong tokens from one address below: the guess limit is raised here and tested on its own sandbox.
  sb = await createSandbox({ world: 'multi-workspace', adminToken: TOKEN, guessLimit: { burst: 1000, per_second: 1 } })
})
afterAll(async () => sb.close())

/** Registration and the authorization request: the locked sign-in page, parsed, and the PKCE verifier. */
async function startSignIn(target: RunningSandbox = sb) {
  const reg = await (await fetch(`${target.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }) })).json() as { client_id: string }
  const { verifier, challenge } = pkcePair()
  const url = new URL(`${target.baseUrl}/authorize`)
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: reg.client_id, code_challenge: challenge, code_challenge_method: 'S256', resource: `${target.baseUrl}/mcp` })) url.searchParams.set(k, v)
  const page = await fetch(url)
  const html = await page.text()
  return { clientId: reg.client_id, verifier, url, html, form: parseSignInForm(html) }
}

describe('the sign-in form shares the control plane\'s guess limit (issue 33)', () => {
  it('stops a client that guesses across fresh sign-in requests, the right token included, and the control plane with it', async () => {
    const guarded = await createSandbox({ world: 'multi-workspace', adminToken: TOKEN, guessLimit: { burst: 3, per_second: 0.01 } })
    try {
      const outcomes: string[] = []
      for (let i = 0; i < 5; i++) {
        // A fresh request each time: its own allowance of MAX_TOKEN_ATTEMPTS is no way around the per-client limit.
        const { form } = await startSignIn(guarded)
        const res = await postForm(guarded.baseUrl, form.action, { request: form.request, csrf: form.csrf, admin_token: `guess-${i}`, decision: 'unlock' })
        outcomes.push(`${res.status} ${((await res.json()) as { error: string }).error}`)
      }
      expect(outcomes.slice(0, 3).every((o) => o.includes('that is not the admin token'))).toBe(true)
      expect(outcomes.slice(3).every((o) => o.includes('too many wrong admin tokens'))).toBe(true)
      const { form } = await startSignIn(guarded)
      const right = await postForm(guarded.baseUrl, form.action, { request: form.request, csrf: form.csrf, admin_token: TOKEN, decision: 'unlock' })
      expect(right.status).toBe(403)
      expect((await fetch(`${guarded.baseUrl}/_sandbox/clock`, { headers: { 'x-sandbox-admin': TOKEN } })).status).toBe(429)
    } finally {
      await guarded.close()
    }
  })
})

describe('signing in to a sandbox started with an admin token', () => {
  it('drives the whole flow: no token without the admin token, a working token with it', async () => {
    const start = await startSignIn()
    // The locked page lists nobody and offers no account to pick.
    expect(start.form.needsToken).toBe(true)
    expect(start.form.accounts).toEqual([])
    expect(start.html).not.toMatch(/usr_alex|Alex Agency|alex@|ws_client_a|Client A/i)

    const base = { request: start.form.request, csrf: start.form.csrf }
    const blind = await postForm(sb.baseUrl, start.form.action, { ...base, account: 'usr_alex ws_client_a', decision: 'allow' })
    expect(blind.status).toBe(403)
    expect(await blind.json()).toMatchObject({ code: 'SIGN_IN_REFUSED' })
    const wrong = await postForm(sb.baseUrl, start.form.action, { ...base, admin_token: `${TOKEN}x`, decision: 'unlock' })
    expect(wrong.status).toBe(403)
    expect(await wrong.text()).not.toContain('usr_alex')

    const unlocked = await postForm(sb.baseUrl, start.form.action, { ...base, admin_token: TOKEN, decision: 'unlock' })
    expect(unlocked.status).toBe(200)
    const html = await unlocked.text()
    expect(html).not.toContain(TOKEN)
    const accounts = parseSignInForm(html).accounts
    expect(accounts).toContain('usr_alex ws_client_a')

    const allowed = await postForm(sb.baseUrl, start.form.action, { ...base, account: 'usr_alex ws_client_a', decision: 'allow' })
    expect(allowed.status).toBe(302)
    const code = new URL(allowed.headers.get('location') as string).searchParams.get('code') as string
    const tokens = await tokenRequest(sb.baseUrl, { grant_type: 'authorization_code', code, code_verifier: start.verifier, client_id: start.clientId, redirect_uri: REDIRECT_URI, resource: `${sb.baseUrl}/mcp` })
    expect(tokens.status).toBe(200)
    const client = await connectHttp(sb.baseUrl, { headers: { authorization: `Bearer ${tokens.body.access_token as string}` } })
    try {
      expect((await call(client, 'get_credit_balance')).structuredContent).toMatchObject({ workspace_id: 'ws_client_a' })
    } finally {
      await client.close()
    }
  })

  it('the scripted client gets no token without the admin token, and one with it', async () => {
    await expect(signIn(sb.baseUrl, { account: 'usr_alex ws_agency' })).rejects.toThrow(/403/)
    const { tokens } = await signIn(sb.baseUrl, { account: 'usr_alex ws_agency', adminToken: TOKEN })
    expect((await rpc(sb.baseUrl, INITIALIZE, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(200)
  })

  it('takes the admin token only in the form: in the authorization URL it unlocks nothing', async () => {
    const start = await startSignIn()
    start.url.searchParams.set('admin_token', TOKEN)
    const page = parseSignInForm(await (await fetch(start.url)).text())
    expect(page.needsToken).toBe(true)
    expect(page.accounts).toEqual([])
  })

  it(`drops a sign-in request after ${MAX_TOKEN_ATTEMPTS} wrong admin tokens`, async () => {
    const { form } = await startSignIn()
    const attempt = (admin_token: string) => postForm(sb.baseUrl, form.action, { request: form.request, csrf: form.csrf, admin_token, decision: 'unlock' })
    for (let i = 0; i < MAX_TOKEN_ATTEMPTS; i++) expect((await attempt(`guess-${i}`)).status).toBe(403)
    expect((await attempt(TOKEN)).status).toBe(400)
  })

  it('never journals the admin token typed into the form', async () => {
    const seen = async () => (await sb.control.journal({ limit: 1000 })) as unknown as Array<{ seq: number }>
    const before = Math.max(0, ...(await seen()).map((e) => e.seq))
    await signIn(sb.baseUrl, { account: 'usr_alex ws_agency', adminToken: TOKEN })
    const journal = JSON.stringify((await seen()).filter((e) => e.seq > before))
    expect(journal).toContain('/oauth/sign-in')
    expect(journal).not.toContain(TOKEN)
    expect(journal).not.toContain(encodeURIComponent(TOKEN))
  })
})

describe('SignInGate: when the page asks for the admin token (the socket decides, never Host)', () => {
  const req = (remoteAddress: string, extra: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers: { host: '127.0.0.1:8080', ...extra } }) as unknown as Request
  it.each([
    ['no admin token, a loopback socket: one click', null, '127.0.0.1', false],
    ['no admin token, an IPv6 loopback socket: one click', null, '::1', false],
    ['no admin token, a remote socket claiming Host 127.0.0.1: locked', null, '203.0.113.9', true],
    ['an admin token, a loopback socket: locked', TOKEN, '127.0.0.1', true],
    ['an admin token, a remote socket: locked', TOKEN, '10.0.0.7', true],
  ])('%s', (_label, token, remote, locked) => {
    expect(new SignInGate(token).locked(req(remote))).toBe(locked)
  })

  it.each([
    ['X-Forwarded-For', { 'x-forwarded-for': '198.51.100.4' }],
    ['Forwarded', { forwarded: 'for=198.51.100.4' }],
  ])('no admin token, a loopback socket relaying %s (a local proxy): locked', (_label, headers) => {
    expect(new SignInGate(null).locked(req('127.0.0.1', headers))).toBe(true)
  })

  it.each([
    ['the token (yes)', TOKEN, true],
    ['a value of the same length in characters, not in bytes (no)', 'sandbox-admin-To-9', false],
    ['a value of the same length in bytes, not in characters (no)', 'sandbox-admin-To-9x', false],
    ['empty (no)', '', false],
    ['not a string (no)', ['x'], false],
  ])('accepts %s, without throwing', (_label, given, ok) => {
    expect(new SignInGate(TOKEN).accepts(given)).toBe(ok)
  })

  it('accepts nothing when no admin token is set', () => {
    expect(new SignInGate(null).accepts('')).toBe(false)
    expect(new SignInGate(null).accepts('anything')).toBe(false)
  })
})
