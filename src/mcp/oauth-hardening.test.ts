import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { INITIALIZE, rpc } from './mcp-test-support.js'
import { REDIRECT_URI, parseSignInForm, pkcePair, postForm, signIn, submitSignIn, tokenRequest } from './sign-in-client.js'
import { REGISTRATION_LIMITS } from './client-registry.js'
import { MAX_PENDING_PER_CLIENT } from './oauth-provider.js'

// OAuth mechanics on loopback with the control plane opened on purpose, so the sign-in page is one
// click; the admin-token step a default sandbox puts first is sign-in-gate.test.ts's.
let sb: RunningSandbox
beforeAll(async () => {
  sb = await createSandbox({ world: 'multi-workspace', openControlPlane: true })
})
afterAll(async () => sb.close())

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const register = async (body: Record<string, unknown>) => {
  const res = await fetch(`${sb.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token_endpoint_auth_method: 'none', ...body }) })
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}
const authorizeUrl = (clientId: string, challenge: string, extra: Record<string, string> = {}) => {
  const url = new URL(`${sb.baseUrl}/authorize`)
  const params = { response_type: 'code', client_id: clientId, code_challenge: challenge, code_challenge_method: 'S256', state: 's1', ...extra }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return url
}
const openPage = async () => {
  const reg = await register({ redirect_uris: [REDIRECT_URI] })
  const page = await fetch(authorizeUrl(reg.body.client_id, pkcePair().challenge))
  return { page, form: parseSignInForm(await page.text()) }
}

describe('replays revoke what the first use issued (RFC 6749 §4.1.2, RFC 9700 §4.14)', () => {
  it('a replayed authorization code is refused and the tokens from its first use stop working', async () => {
    const reg = await register({ redirect_uris: [REDIRECT_URI] })
    const { verifier, challenge } = pkcePair()
    const back = await submitSignIn(sb.baseUrl, authorizeUrl(reg.body.client_id, challenge), 'usr_alex ws_agency')
    const exchange = { grant_type: 'authorization_code', code: back.searchParams.get('code') as string, code_verifier: verifier, client_id: reg.body.client_id }
    const first = await tokenRequest(sb.baseUrl, exchange)
    expect(first.status).toBe(200)
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(first.body.access_token as string))).status).toBe(200)

    expect(await tokenRequest(sb.baseUrl, exchange)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(first.body.access_token as string))).status).toBe(401)
    const refresh = await tokenRequest(sb.baseUrl, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: reg.body.client_id })
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  it('a code replayed after its 10 minutes are over still revokes what it bought', async () => {
    const reg = await register({ redirect_uris: [REDIRECT_URI] })
    const { verifier, challenge } = pkcePair()
    const back = await submitSignIn(sb.baseUrl, authorizeUrl(reg.body.client_id, challenge), 'usr_alex ws_agency')
    const exchange = { grant_type: 'authorization_code', code: back.searchParams.get('code') as string, code_verifier: verifier, client_id: reg.body.client_id }
    const first = await tokenRequest(sb.baseUrl, exchange)
    await sb.control.advanceClock('11m')
    expect((await tokenRequest(sb.baseUrl, exchange)).status).toBe(400)
    const refresh = await tokenRequest(sb.baseUrl, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: reg.body.client_id })
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  it('a replayed rotated refresh token is refused and the whole family, the newest tokens included, is revoked', async () => {
    const { tokens, clientId } = await signIn(sb.baseUrl, { account: 'usr_alex ws_agency' })
    const rotate = (refresh_token: string) => tokenRequest(sb.baseUrl, { grant_type: 'refresh_token', refresh_token, client_id: clientId })
    const second = await rotate(tokens.refresh_token as string)
    const third = await rotate(second.body.refresh_token as string)
    expect(third.status).toBe(200)
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(third.body.access_token as string))).status).toBe(200)

    expect(await rotate(tokens.refresh_token as string)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(third.body.access_token as string))).status).toBe(401)
    expect((await rotate(third.body.refresh_token as string)).status).toBe(400)
  })

  it('a replay revokes only its own sign-in: another sign-in of the same client keeps working', async () => {
    const one = await signIn(sb.baseUrl, { account: 'usr_alex ws_agency' })
    const other = await signIn(sb.baseUrl, { account: 'usr_casey ws_client_a' })
    const next = await tokenRequest(sb.baseUrl, { grant_type: 'refresh_token', refresh_token: one.tokens.refresh_token as string, client_id: one.clientId })
    await tokenRequest(sb.baseUrl, { grant_type: 'refresh_token', refresh_token: one.tokens.refresh_token as string, client_id: one.clientId })
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(next.body.access_token as string))).status).toBe(401)
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(other.tokens.access_token))).status).toBe(200)
  })
})

describe('dynamic client registration is strict and bounded', () => {
  it.each([
    ['file:', 'file:///etc/passwd'],
    ['blob:', 'blob:https://evil.example/1'],
    ['about:', 'about:blank'],
    ['mailto:', 'mailto:a@example.com'],
    ['ftp:', 'ftp://example.com/cb'],
    ['ws:', 'ws://127.0.0.1:9/cb'],
    ['javascript:', 'javascript:alert(1)'],
    ['remote http:', 'http://evil.example/cb'],
    ['http on a host that only starts with 127.', 'http://127.0.0.1.evil.example/cb'],
    ['a fragment', 'https://app.example/cb#frag'],
    ['a loopback fragment', 'http://127.0.0.1:9/cb#frag'],
  ])('refuses a redirect URI with %s (400, nothing registered)', async (_label, uri) => {
    const res = await register({ redirect_uris: [uri] })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/^invalid_(redirect_uri|client_metadata)$/)
    expect(res.body.client_id).toBeUndefined()
  })

  it.each([
    ['https anywhere', 'https://app.example/cb'],
    ['http on 127.0.0.1', 'http://127.0.0.1:33418/cb'],
    ['http on 127.0.0.0/8', 'http://127.8.9.10/cb'],
    ['http on [::1]', 'http://[::1]:8080/cb'],
    ['http on localhost', 'http://localhost:6274/oauth/callback'],
  ])('accepts %s', async (_label, uri) => {
    expect((await register({ redirect_uris: [uri] })).status).toBe(201)
  })

  it.each([
    ['a client_name over 256 characters', { client_name: 'n'.repeat(257) }, 400],
    ['11 redirect URIs', { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`) }, 400],
    ['3 000 redirect URIs (a 90 KB body)', { redirect_uris: Array.from({ length: 3000 }, (_, i) => `https://app.example/cb${i}`) }, 413],
    ['a 95 KB client_name', { client_name: 'n'.repeat(95_000) }, 413],
    ['metadata over 8 KB (jwks)', { jwks: { keys: [{ k: 'x'.repeat(9_000) }] } }, 400],
  ])('refuses %s', async (_label, extra, status) => {
    const res = await register({ redirect_uris: [REDIRECT_URI], ...extra })
    expect(res.status).toBe(status)
    expect(res.body.client_id).toBeUndefined()
  })

  it(`holds at most ${REGISTRATION_LIMITS.clients} clients: past that a registration is 4xx until unused ones age out (sandbox clock)`, async () => {
    const fresh = await createSandbox({ world: 'multi-workspace', openControlPlane: true })
    try {
      const post = () => fetch(`${fresh.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }) })
      const first = (await (await post()).json()) as { client_id: string }
      const used = await signIn(fresh.baseUrl, { account: 'usr_alex ws_agency' })
      for (let sent = 2; sent < REGISTRATION_LIMITS.clients; sent += 50) {
        const batch = await Promise.all(Array.from({ length: Math.min(50, REGISTRATION_LIMITS.clients - sent) }, post))
        expect(batch.map((r) => r.status)).toEqual(batch.map(() => 201))
      }
      const full = await post()
      expect(full.status).toBe(400)
      expect(await full.json()).toMatchObject({ error: 'too_many_requests' })

      await fresh.control.advanceClock('11m')
      expect((await post()).status).toBe(201)
      const unused = await fetch(authorizeUrl(first.client_id, pkcePair().challenge).href.replace(sb.baseUrl, fresh.baseUrl))
      expect(unused.status).toBe(400)
      expect((await rpc(fresh.baseUrl, INITIALIZE, bearer(used.tokens.access_token))).status).toBe(200)

      await fresh.control.advanceClock('25h')
      const refreshed = await tokenRequest(fresh.baseUrl, { grant_type: 'refresh_token', refresh_token: used.tokens.refresh_token as string, client_id: used.clientId })
      expect(refreshed.status).toBe(200)
    } finally {
      await fresh.close()
    }
  }, 60_000)
})

describe('authorize and token requests are as strict as OAuth 2.1', () => {
  it(`keeps at most ${MAX_PENDING_PER_CLIENT} open sign-in pages per client: one more replaces only that client's oldest`, async () => {
    const other = await openPage()
    const reg = await register({ redirect_uris: [REDIRECT_URI] })
    const forms = []
    for (let i = 0; i <= MAX_PENDING_PER_CLIENT; i++) forms.push(parseSignInForm(await (await fetch(authorizeUrl(reg.body.client_id, pkcePair().challenge))).text()))
    const submit = (form: ReturnType<typeof parseSignInForm>) => postForm(sb.baseUrl, form.action, { request: form.request, csrf: form.csrf, account: form.accounts[0], decision: 'allow' })
    expect((await submit(forms[0])).status).toBe(400)
    expect((await submit(forms[1])).status).toBe(302)
    expect((await submit(other.form)).status).toBe(302)
  })

  it('refuses a fragment in redirect_uri at /authorize, even one matching a registered loopback URI', async () => {
    const reg = await register({ redirect_uris: [REDIRECT_URI] })
    const res = await fetch(authorizeUrl(reg.body.client_id, pkcePair().challenge, { redirect_uri: `${REDIRECT_URI}#frag` }), { redirect: 'manual' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_request' })
  })

  it.each([
    ['42 characters', 'a'.repeat(42), 'invalid_request'],
    ['129 characters', 'a'.repeat(129), 'invalid_request'],
    ['characters outside the unreserved set', `${'a'.repeat(42)}+`, 'invalid_request'],
  ])('refuses a PKCE verifier of %s even when it matches the challenge', async (_label, verifier, error) => {
    const { createHash } = await import('node:crypto')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const reg = await register({ redirect_uris: [REDIRECT_URI] })
    const back = await submitSignIn(sb.baseUrl, authorizeUrl(reg.body.client_id, challenge), 'usr_alex ws_agency')
    const res = await tokenRequest(sb.baseUrl, { grant_type: 'authorization_code', code: back.searchParams.get('code') as string, code_verifier: verifier, client_id: reg.body.client_id })
    expect(res).toMatchObject({ status: 400, body: { error } })
  })

  it('accepts a 43- and a 128-character verifier', async () => {
    for (const verifier of ['a'.repeat(43), `${'A1-._~'.repeat(21)}zz`]) {
      const { createHash } = await import('node:crypto')
      const reg = await register({ redirect_uris: [REDIRECT_URI] })
      const back = await submitSignIn(sb.baseUrl, authorizeUrl(reg.body.client_id, createHash('sha256').update(verifier).digest('base64url')), 'usr_alex ws_agency')
      const res = await tokenRequest(sb.baseUrl, { grant_type: 'authorization_code', code: back.searchParams.get('code') as string, code_verifier: verifier, client_id: reg.body.client_id })
      expect(res.status).toBe(200)
    }
  })
})

describe('the sign-in form (POST /oauth/sign-in)', () => {
  it('sends frame-ancestors none and X-Frame-Options DENY with the page', async () => {
    const { page } = await openPage()
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(page.headers.get('x-frame-options')).toBe('DENY')
  })

  it.each([
    ['no decision', {}],
    ['an unknown decision', { decision: 'yes please' }],
    ['decision=deny', { decision: 'deny' }],
  ])('treats %s as deny: redirect with access_denied and no code', async (_label, decision) => {
    const { form } = await openPage()
    const res = await postForm(sb.baseUrl, form.action, { request: form.request, csrf: form.csrf, account: form.accounts[0], ...decision })
    expect(res.status).toBe(302)
    const back = new URL(res.headers.get('location') as string)
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('code')).toBeNull()
  })

  it.each([
    ['another site in Origin', { origin: 'https://evil.example' }],
    ['Origin null (a sandboxed frame)', { origin: 'null' }],
    ['another site in Referer, no Origin', { origin: '', referer: 'https://evil.example/page' }],
  ])('refuses a post from %s: 403 SIGN_IN_REFUSED, no code, the request still usable', async (_label, headers) => {
    const { form } = await openPage()
    const fields = { request: form.request, csrf: form.csrf, account: form.accounts[0], decision: 'allow' }
    const res = await rawPost(form.action, fields, headers)
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ code: 'SIGN_IN_REFUSED' })
    const ok = await postForm(sb.baseUrl, form.action, fields)
    expect(new URL(ok.headers.get('location') as string).searchParams.get('code')).toMatch(/^mcp_ac_/)
  })

  it('refuses a post without the page\'s csrf value (403), even same-origin', async () => {
    const { form } = await openPage()
    for (const csrf of ['', 'x'.repeat(form.csrf.length)]) {
      const res = await postForm(sb.baseUrl, form.action, { request: form.request, csrf, account: form.accounts[0], decision: 'allow' })
      expect(res.status).toBe(403)
    }
  })
})

// A post without the Origin header fetch would add for us: Origin '' means "send none".
function rawPost(action: string, fields: Record<string, string>, headers: Record<string, string>): Promise<Response> {
  const sent: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  for (const [name, value] of Object.entries(headers)) if (value) sent[name] = value
  return fetch(new URL(action, sb.baseUrl), { method: 'POST', redirect: 'manual', headers: sent, body: new URLSearchParams(fields) })
}
