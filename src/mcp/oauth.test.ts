import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { INITIALIZE, call, connectHttp, listAllTools, rpc } from './mcp-test-support.js'
import { MemoryOAuthClient } from './oauth-test-support.js'
import { parseSignInForm, pkcePair, REDIRECT_URI, signIn, submitSignIn, tokenRequest } from './sign-in-client.js'

// OAuth mechanics on loopback with the control plane opened on purpose, so the sign-in page is one
// click; the admin-token step a default sandbox puts first is sign-in-gate.test.ts's.
let sb: RunningSandbox
const closers: Array<() => Promise<unknown>> = []
beforeEach(async () => {
  sb = await createSandbox({ world: 'multi-workspace', openControlPlane: true })
})
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  await sb.close()
})

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('OAuth sign-in for hosted MCP (MCP-01)', () => {
  it('lets the SDK client sign in through the full PKCE flow, the test submitting the sign-in page, then list and call tools', async () => {
    const provider = new MemoryOAuthClient()
    const transport = new StreamableHTTPClientTransport(new URL(`${sb.baseUrl}/mcp`), { authProvider: provider })
    await expect(new Client({ name: 't', version: '0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256')

    const back = await submitSignIn(sb.baseUrl, provider.authorizationUrl as URL, 'usr_alex ws_client_b')
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI)
    await transport.finishAuth(back.searchParams.get('code') as string)
    expect(provider.tokens()?.access_token).toMatch(/^mcp_at_/)

    const client = await connectHttp(sb.baseUrl, { authProvider: provider })
    closers.push(() => client.close())
    expect((await listAllTools(client)).tools.length).toBeGreaterThan(5)
    expect((await call(client, 'get_credit_balance')).structuredContent).toMatchObject({ workspace_id: 'ws_client_b', balance: 300 })
  })

  it('shows a sign-in page listing every sandbox user with each of their workspaces', async () => {
    const { challenge } = pkcePair()
    const reg = await (await fetch(`${sb.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }) })).json()
    const url = `${sb.baseUrl}/authorize?response_type=code&client_id=${reg.client_id}&code_challenge=${challenge}&code_challenge_method=S256`
    const page = await fetch(url)
    expect(page.headers.get('content-type')).toContain('text/html')
    const html = await page.text()
    expect(parseSignInForm(html).accounts.sort()).toEqual(['usr_alex ws_agency', 'usr_alex ws_client_a', 'usr_alex ws_client_b', 'usr_casey ws_client_a'])
    expect(html).toContain('Alex Agency')
    expect(html).toContain('Client B - Coffee')
  })

  it('publishes protected-resource and authorization-server metadata', async () => {
    const as = await (await fetch(`${sb.baseUrl}/.well-known/oauth-authorization-server`)).json()
    expect(as).toMatchObject({
      issuer: `${sb.baseUrl}/`, authorization_endpoint: `${sb.baseUrl}/authorize`, token_endpoint: `${sb.baseUrl}/token`,
      registration_endpoint: `${sb.baseUrl}/register`, code_challenge_methods_supported: ['S256'],
    })
    expect(as.scopes_supported).toContain('campaigns:write')
  })

  it('binds a token to the chosen user, workspace and scopes: a missing scope is an isError result', async () => {
    const { tokens } = await signIn(sb.baseUrl, { account: 'usr_alex ws_client_a', scope: 'reporting:read campaigns:read' })
    expect(tokens.scope).toBe('reporting:read campaigns:read')
    const client = await connectHttp(sb.baseUrl, { headers: bearer(tokens.access_token) })
    closers.push(() => client.close())
    expect((await call(client, 'get_credit_balance')).structuredContent?.workspace_id).toBe('ws_client_a')
    const refused = await call(client, 'list_connected_accounts')
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent).toMatchObject({ code: 'SCOPE_MISSING', scope: 'connections:read', http_status: 403 })
  })

  it('refuses a sign-in for a workspace the user is not a member of, and unknown scopes', async () => {
    await expect(signIn(sb.baseUrl, { account: 'usr_casey ws_client_b' })).rejects.toThrow(/400/)
    await expect(signIn(sb.baseUrl, { account: 'usr_alex ws_agency', scope: 'tools:write' })).rejects.toThrow(/302.*error=invalid_scope/)
  })

  it('redirects with access_denied and the state when the user denies', async () => {
    const { challenge } = pkcePair()
    const reg = await (await fetch(`${sb.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }) })).json()
    const back = await submitSignIn(sb.baseUrl, `${sb.baseUrl}/authorize?response_type=code&client_id=${reg.client_id}&code_challenge=${challenge}&code_challenge_method=S256&state=xyz`, 'deny')
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('state')).toBe('xyz')
    expect(back.searchParams.get('code')).toBeNull()
  })
})

describe('OAuth tokens live on the sandbox clock', () => {
  it('expires the access token after 60 sandbox minutes; the refresh token rotates and works once', async () => {
    const { tokens, clientId } = await signIn(sb.baseUrl, { account: 'usr_alex ws_agency' })
    expect(tokens.expires_in).toBe(3600)
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(tokens.access_token))).status).toBe(200)
    await sb.control.advanceClock('61m')
    const expired = await rpc(sb.baseUrl, INITIALIZE, bearer(tokens.access_token))
    expect(expired.status).toBe(401)
    expect(expired.headers.get('www-authenticate')).toContain('resource_metadata=')

    const refreshed = await tokenRequest(sb.baseUrl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId })
    expect(refreshed.status).toBe(200)
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(refreshed.body.access_token as string))).status).toBe(200)
    const reused = await tokenRequest(sb.baseUrl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId })
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  it('refuses a wrong PKCE verifier and a reused code', async () => {
    const reg = await (await fetch(`${sb.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }) })).json()
    const { verifier, challenge } = pkcePair()
    const back = await submitSignIn(sb.baseUrl, `${sb.baseUrl}/authorize?response_type=code&client_id=${reg.client_id}&code_challenge=${challenge}&code_challenge_method=S256`, 'usr_alex ws_agency')
    const code = back.searchParams.get('code') as string
    const base = { grant_type: 'authorization_code', code, client_id: reg.client_id }
    expect(await tokenRequest(sb.baseUrl, { ...base, code_verifier: pkcePair().verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect((await tokenRequest(sb.baseUrl, { ...base, code_verifier: verifier })).status).toBe(200)
    expect(await tokenRequest(sb.baseUrl, { ...base, code_verifier: verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  it('stops a token when its user leaves the workspace (403), and after revocation (401)', async () => {
    const { tokens, clientId } = await signIn(sb.baseUrl, { account: 'usr_casey ws_client_a' })
    const memberships = await sb.control.request<{ memberships: Array<{ id: string; user_id: string }> }>('GET', '/memberships')
    const casey = memberships.memberships.find((m) => m.user_id === 'usr_casey') as { id: string }
    await sb.control.request('DELETE', `/memberships/${casey.id}`)
    const left = await rpc(sb.baseUrl, INITIALIZE, bearer(tokens.access_token))
    expect(left.status).toBe(403)
    expect(await left.json()).toMatchObject({ code: 'WORKSPACE_ACCESS_DENIED' })

    const other = await signIn(sb.baseUrl, { account: 'usr_alex ws_agency' })
    const revoke = await fetch(`${sb.baseUrl}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: other.tokens.access_token, client_id: other.clientId }) })
    expect(revoke.status).toBe(200)
    expect((await rpc(sb.baseUrl, INITIALIZE, bearer(other.tokens.access_token))).status).toBe(401)
    expect(clientId).not.toBe(other.clientId)
  })

  it('never writes token values into the request journal', async () => {
    const { tokens } = await signIn(sb.baseUrl, { account: 'usr_alex ws_agency' })
    await rpc(sb.baseUrl, INITIALIZE, bearer(tokens.access_token))
    const journal = JSON.stringify(await sb.control.journal({ limit: 1000 }))
    expect(journal).toContain('/token')
    expect(journal).not.toContain(tokens.access_token)
    expect(journal).not.toContain(tokens.refresh_token as string)
  })
})
