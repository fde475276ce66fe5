import { createHash } from 'node:crypto'
import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { ConnectLink, Connection, ConnectionRequest, OutboxMail, Workspace } from './model.js'
import type { Actor } from './access.js'
import type { ConnectionSeeder } from './world.js'
import { SandboxError, invalidRequest, notFound } from './errors.js'
import { hashKey } from './access.js'
import { PLATFORMS } from './catalog-flags.js'
import { iso } from './durations.js'

/** Connect links live 30 minutes of sandbox time (CONN-02, spec §8). */
export const LINK_TTL_MS = 30 * 60_000
/** Campaigns generated for an account connected through a link. */
export const CONNECTED_CAMPAIGNS = 5

export type LinkState = 'pending' | 'used' | 'expired'

/** A connect link as the API shows it; the token appears only in `url`, only at creation. */
export interface IssuedLink {
  id: string
  url: string
  platform: string
  workspace_id: string
  created_at: string
  expires_at: string
  expires_in_seconds: number
  single_use: true
}

/** A fake ad account the consent page offers. */
export interface AdAccount {
  account_id: string
  account_name: string
  currency: string
}

/** Lower-cased platform, or 400 `UNSUPPORTED_PLATFORM` (only `google`, case-insensitive). */
export function normalizePlatform(platform: string): string {
  const name = platform.trim().toLowerCase()
  if (!PLATFORMS.includes(name)) {
    throw new SandboxError('UNSUPPORTED_PLATFORM', { reason: `Platform '${platform}' is not supported; use one of: ${PLATFORMS.join(', ')}.`, platform })
  }
  return name
}

/** Tokens are stored like key values: as their SHA-256 (`hashKey`). */
export function hashToken(token: string): string {
  return hashKey(token)
}

/**
 * `POST /api/v1/connections/start` (CONN-01..03): a single-use link `{base_url}/connect/{token}` that
 * expires 30 minutes later and connects into the workspace of the key that created it. Only the
 * token's hash is stored.
 */
export function startConnectLink(deps: Deps, actor: Actor, input: { platform: string; baseUrl: string }): IssuedLink {
  return issueLink(deps, { workspace: actor.workspace, keyId: actor.key.id, platform: normalizePlatform(input.platform), baseUrl: input.baseUrl, requestId: null })
}

/**
 * `POST /api/v1/connections/request` (CONN-04): a fresh link e-mailed to the workspace owner (the
 * outbox) and a request id whose status can be polled.
 */
export function requestConnection(deps: Deps, actor: Actor, input: { platform: string; baseUrl: string }): { request: PublicRequest; mail: OutboxMail } {
  const platform = normalizePlatform(input.platform)
  const owner = deps.store.users.get(actor.workspace.owner_user_id)
  if (!owner) throw notFound(`Owner of workspace ${actor.workspace.id}`)
  const requestId = deps.ids.next('creq')
  const link = issueLink(deps, { workspace: actor.workspace, keyId: actor.key.id, platform, baseUrl: input.baseUrl, requestId })
  const request: ConnectionRequest = {
    id: requestId, workspace_id: actor.workspace.id, key_id: actor.key.id, platform, link_id: link.id, owner_email: owner.email, created_at: link.created_at,
  }
  deps.store.connectionRequests.insert(request)
  const mail: OutboxMail = {
    id: deps.ids.next('mail'),
    at: link.created_at,
    workspace_id: actor.workspace.id,
    to: owner.email,
    subject: `Connect a Google Ads account to ${actor.workspace.name}`,
    body: [
      `Hi ${owner.name},`,
      '',
      `A key of your workspace ${actor.workspace.name} (${actor.key.prefix}…) asked you to connect a Google Ads account.`,
      `Open this link within 30 minutes to choose the account (it works once): ${link.url}`,
      '',
      `Request ${requestId}. If you did not expect this, ignore this e-mail.`,
    ].join('\n'),
    link: link.url,
    request_id: requestId,
  }
  deps.store.outbox.insert(mail)
  return { request: publicRequest(deps, request), mail }
}

export interface PublicRequest {
  id: string
  status: 'pending' | 'completed' | 'expired'
  platform: string
  workspace_id: string
  sent_to: string
  created_at: string
  expires_at: string
  completed_at: string | null
  connection_id: string | null
}

/**
 * `GET /api/v1/connections/requests/{id}` (CONN-04): pending until its link is used (completed) or
 * runs out (expired), decided by sandbox time when asked. Another workspace's request is 404 (KEY-12).
 */
export function connectionRequestStatus(deps: Deps, actor: Actor, id: string): PublicRequest {
  const request = deps.store.connectionRequests.get(id)
  if (!request || request.workspace_id !== actor.workspace.id) throw notFound(`Connection request ${id}`)
  return publicRequest(deps, request)
}

/** The state of a link at `now`: used wins over expired, so a completed link never reads as expired. */
export function linkState(link: ConnectLink, now: number): LinkState {
  if (link.used_at) return 'used'
  return now >= Date.parse(link.expires_at) ? 'expired' : 'pending'
}

/** The link behind a token, or 404 for a token that never existed. */
export function findLink(deps: Deps, token: string): ConnectLink {
  const link = deps.store.connectLinks.findBy('token_hash', hashToken(token))
  if (!link) throw notFound('Connect link')
  return link
}

/** What the consent page shows: the link's workspace and a few fake ad accounts to choose from. */
export function describeLink(deps: Deps, token: string): { link: ConnectLink; workspace: Workspace; state: LinkState; accounts: AdAccount[]; owner_email: string } {
  const link = findLink(deps, token)
  const workspace = deps.store.workspaces.get(link.workspace_id)
  if (!workspace) throw notFound('Connect link')
  const owner = deps.store.users.get(workspace.owner_user_id)
  return { link, workspace, state: linkState(link, nowIn(deps, link.workspace_id)), accounts: fakeAccounts(link, workspace), owner_email: owner?.email ?? 'owner@example.test' }
}

/**
 * Consent submitted (CONN-02, CONN-03): creates the connection in the link's workspace and
 * generates its campaigns. Check-and-mark happens in one synchronous step, so of any number of
 * concurrent uses exactly one connects; the rest get 410 `LINK_GONE`.
 */
export function redeemLink(deps: Deps, input: { token: string; account_id?: string; onConnection?: ConnectionSeeder }): Connection {
  const { link, workspace, state, accounts } = describeLink(deps, input.token)
  if (state !== 'pending') throw linkGone(state)
  const account = input.account_id === undefined ? accounts[0] : accounts.find((a) => a.account_id === input.account_id)
  if (!account) throw invalidRequest(`account_id must be one of: ${accounts.map((a) => a.account_id).join(', ')}`, 'account_id')
  const at = iso(nowIn(deps, workspace.id))
  const connection: Connection = {
    id: deps.ids.next('conn'), workspace_id: workspace.id, platform: link.platform, ...account, status: 'active', created_at: at, source: 'connect_link',
  }
  deps.store.connectLinks.update(link.id, { used_at: at, connection_id: connection.id })
  deps.store.connections.insert(connection)
  input.onConnection?.(deps, connection.id, { count: CONNECTED_CAMPAIGNS }, deps.store.meta().seed)
  return connection
}

/** 410 `LINK_GONE` for a used or expired link (CONN-02). */
export function linkGone(state: LinkState): SandboxError {
  return new SandboxError('LINK_GONE', { state: state === 'used' ? 'already been used' : 'expired', link_status: state })
}

function issueLink(deps: Deps, input: { workspace: Workspace; keyId: string; platform: string; baseUrl: string; requestId: string | null }): IssuedLink {
  const token = deps.ids.secret(32)
  const now = nowIn(deps, input.workspace.id)
  const link: ConnectLink = {
    id: deps.ids.next('link'),
    token_hash: hashToken(token),
    workspace_id: input.workspace.id,
    key_id: input.keyId,
    platform: input.platform,
    created_at: iso(now),
    expires_at: iso(now + LINK_TTL_MS),
    used_at: null,
    connection_id: null,
    request_id: input.requestId,
  }
  deps.store.connectLinks.insert(link)
  return {
    id: link.id,
    url: `${input.baseUrl.replace(/\/$/, '')}/connect/${token}`,
    platform: link.platform,
    workspace_id: link.workspace_id,
    created_at: link.created_at,
    expires_at: link.expires_at,
    expires_in_seconds: LINK_TTL_MS / 1000,
    single_use: true,
  }
}

function publicRequest(deps: Deps, request: ConnectionRequest): PublicRequest {
  const link = deps.store.connectLinks.get(request.link_id)
  const state = link ? linkState(link, nowIn(deps, link.workspace_id)) : 'expired'
  return {
    id: request.id,
    status: state === 'used' ? 'completed' : state,
    platform: request.platform,
    workspace_id: request.workspace_id,
    sent_to: request.owner_email,
    created_at: request.created_at,
    expires_at: link?.expires_at ?? request.created_at,
    completed_at: link?.used_at ?? null,
    connection_id: link?.connection_id ?? null,
  }
}

// Deterministic per link, so the page and the submission agree without storing the accounts.
function fakeAccounts(link: ConnectLink, workspace: Workspace): AdAccount[] {
  const digits = BigInt(`0x${createHash('sha256').update(link.id).digest('hex').slice(0, 24)}`).toString().padStart(30, '0')
  const id = (i: number) => `${digits.slice(i * 10, i * 10 + 3)}-${digits.slice(i * 10 + 3, i * 10 + 6)}-${digits.slice(i * 10 + 6, i * 10 + 10)}`
  return [
    { account_id: id(0), account_name: `${workspace.name} - Google Ads`, currency: 'USD' },
    { account_id: id(1), account_name: `${workspace.name} - Brand Search`, currency: 'USD' },
    { account_id: id(2), account_name: `${workspace.name} - Europe`, currency: 'EUR' },
  ]
}
