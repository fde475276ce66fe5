import { randomBytes } from 'node:crypto'
import { jsonOrText } from '../../src/support/json-or-text.js'
import type { Placeholders } from './placeholders.js'
import type { Recorded } from './recorder.js'

type Json = Record<string, any>

interface Seen {
  users: Map<string, { id: string; email: string; name: string }>
  workspaces: Map<string, { id: string; name: string; owner?: string; credits?: { balance: number; payment_method: boolean } }>
  keys: Map<string, { name: string; user: string; workspace: string; scopes: string[] }>
  connections: Map<string, { id: string; workspace: string; platform: string; account_id: string; account_name: string; currency: string }>
  /** Campaigns by id, each as first seen, with the workspace of the key that saw it. */
  campaigns: Map<string, { workspace: string; item: Json }>
}

const CAMPAIGN_FIELDS = ['campaign_id', 'campaign_name', 'status', 'daily_budget', 'channel_type', 'bidding_strategy'] as const

/**
 * A world file (the sandbox's format, `serve --world`) seeded from what a recording saw: the
 * identities `/v1/me` showed, workspaces, credits, connections and every campaign as it was when
 * first read (status, budget). Keys are the recording's placeholders with fresh sandbox values;
 * what the target never showed is made up so that the world loads (a user per key, a connection
 * per workspace with campaigns). Simulated numbers (metrics) come from the sandbox's own model.
 */
export function worldOf(exchanges: readonly Recorded[], placeholders: Placeholders, options: { target: string }): { world: Json; keyNames: Map<string, string>; stableIds: Set<string> } {
  const seen: Seen = { users: new Map(), workspaces: new Map(), keys: new Map(), connections: new Map(), campaigns: new Map() }
  // A key the session created (its value in an earlier answer) is the scenario's to capture, not the world's.
  const created = new Set<string>()
  let answers = ''
  for (const exchange of exchanges) {
    const credential = placeholders.credentialOf(exchange)
    if (credential && answers.includes(credential.value)) created.add(credential.name)
    if (/svc_|mcp_/.test(exchange.responseBody)) answers += exchange.responseBody
  }
  const learnAll = () => {
    for (const exchange of exchanges) {
      const credential = placeholders.credentialOf(exchange)
      if (!credential || created.has(credential.name) || exchange.status >= 400) continue
      const body = jsonOrText(exchange.responseBody)
      if (!body || typeof body !== 'object') continue
      learn(seen, credential.name, exchange, body as Json)
    }
  }
  learnAll()
  unidentified(seen, exchanges, placeholders, created)
  // Again, now that keys `/v1/me` never showed have a workspace: what they read is learnt too (first sight still wins).
  learnAll()
  const world = assemble(seen, options.target)
  const keyNames = new Map([...seen.keys].map(([placeholder, k]) => [placeholder, k.name]))
  return { world, keyNames, stableIds: stableIdsOf(world) }
}

/** Ids the world file fixes (users, workspaces, connections, accounts, campaigns): asserted as they were. */
function stableIdsOf(world: Json): Set<string> {
  const ids = new Set<string>()
  for (const u of world.users) ids.add(u.id)
  for (const w of world.workspaces) ids.add(w.id)
  for (const c of world.connections) {
    ids.add(c.id).add(c.account_id)
    for (const item of c.campaigns.items ?? []) ids.add(item.campaign_id)
  }
  return ids
}

function learn(seen: Seen, key: string, exchange: Recorded, body: Json): void {
  if (exchange.path === '/v1/me' && body.key) {
    const user = body.user ?? { id: body.key.user_id, email: `${body.key.user_id}@recorded.test`, name: body.key.user_id }
    seen.users.set(user.id, { id: user.id, email: user.email ?? `${user.id}@recorded.test`, name: user.name ?? user.id })
    const workspace = body.workspace ?? { id: body.key.workspace_id, name: body.key.workspace_id }
    if (workspace.id && !seen.workspaces.has(workspace.id)) seen.workspaces.set(workspace.id, { id: workspace.id, name: workspace.name ?? workspace.id })
    if (!seen.keys.has(key)) seen.keys.set(key, { name: keyName(seen, body.key.name, key), user: user.id, workspace: workspace.id, scopes: body.key.scopes ?? ['*'] })
  }
  const workspace = seen.keys.get(key)?.workspace
  if (!workspace) return
  if (exchange.path === '/v1/credits' && typeof body.balance === 'number') {
    const ws = seen.workspaces.get(workspace)
    if (ws && !ws.credits) ws.credits = { balance: body.balance, payment_method: body.payment_method !== false }
  }
  for (const c of Array.isArray(body.connections) ? body.connections : []) {
    if (c.id && !seen.connections.has(c.id)) seen.connections.set(c.id, { id: c.id, workspace, platform: c.platform ?? 'google', account_id: c.account_id ?? c.id, account_name: c.account_name ?? c.id, currency: c.currency ?? 'USD' })
  }
  for (const row of campaignRows(exchange, body)) {
    if (typeof row.campaign_id === 'string' && !seen.campaigns.has(row.campaign_id)) seen.campaigns.set(row.campaign_id, { workspace, item: row })
  }
}

/**
 * Keys `/v1/me` never showed: placed in the first workspace seen, as a member of their own, with
 * every scope seen anywhere except those a 403 `SCOPE_MISSING` said they lack. A client that calls
 * `/v1/me` once per key gets an exact world (docs/guide-ci.md "Recording").
 */
function unidentified(seen: Seen, exchanges: readonly Recorded[], placeholders: Placeholders, created: Set<string>): void {
  const workspace = [...seen.workspaces.keys()][0] ?? 'ws_recorded'
  const everyScope = new Set([...seen.keys.values()].flatMap((k) => k.scopes))
  const lacks = new Map<string, Set<string>>()
  for (const exchange of exchanges) {
    const credential = placeholders.credentialOf(exchange)
    if (!credential || created.has(credential.name) || seen.keys.has(credential.name)) continue
    const body = jsonOrText(exchange.responseBody) as Json | null
    const missing = lacks.get(credential.name) ?? new Set<string>()
    if (exchange.status === 403 && body?.code === 'SCOPE_MISSING' && typeof body.scope === 'string') missing.add(body.scope).forEach((s) => everyScope.add(s))
    lacks.set(credential.name, missing)
  }
  for (const [name, missing] of lacks) {
    const scopes = everyScope.size ? [...everyScope].filter((s) => !missing.has(s)) : ['*']
    seen.keys.set(name, { name, user: `usr_${name}`, workspace, scopes })
  }
}

/** The key's own name where `/v1/me` showed one (unique in the world), else its placeholder. */
function keyName(seen: Seen, shown: unknown, placeholder: string): string {
  if (typeof shown !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(shown)) return placeholder
  const taken = new Set([...seen.keys.values()].map((k) => k.name))
  return taken.has(shown) ? placeholder : shown
}

/** Campaign rows in an answer: a list, one campaign, or a dispatcher result that lists them. */
function campaignRows(exchange: Recorded, body: Json): Json[] {
  if (Array.isArray(body.campaigns)) return body.campaigns
  if (Array.isArray(body.result?.campaigns)) return body.result.campaigns
  if (/^\/v1\/campaigns\/[^/]+$/.test(exchange.path) && exchange.method === 'GET' && body.campaign_id) return [body]
  return []
}

function assemble(seen: Seen, target: string): Json {
  for (const key of seen.keys.values()) {
    if (!seen.users.has(key.user)) seen.users.set(key.user, { id: key.user, email: `${key.user.replace(/[^A-Za-z0-9]/g, '')}@recorded.test`, name: key.user })
    if (!seen.workspaces.has(key.workspace)) seen.workspaces.set(key.workspace, { id: key.workspace, name: key.workspace })
    const ws = seen.workspaces.get(key.workspace)!
    ws.owner ??= key.user
  }
  const memberships = [...seen.keys.values()]
    .filter((k) => seen.workspaces.get(k.workspace)?.owner !== k.user)
    .map((k) => ({ user: k.user, workspace: k.workspace, role: 'admin' }))
  const connections = [...seen.workspaces.keys()].flatMap((ws) => connectionsOf(seen, ws))
  return {
    name: 'recorded',
    description: `Recorded from ${target} by adops-sandbox record: what the client saw; metrics are the sandbox's own.`,
    seed: 42,
    users: [...seen.users.values()],
    workspaces: [...seen.workspaces.values()].map(({ id, name, owner, credits }) => ({ id, name, owner, ...(credits ? { credits } : {}) })),
    memberships: uniqueBy(memberships, (m) => `${m.user}@${m.workspace}`),
    keys: [...seen.keys.values()].map((k) => ({ name: k.name, user: k.user, workspace: k.workspace, scopes: k.scopes, value: freshKey() })),
    connections,
  }
}

/** A workspace's connections, its campaigns on the first (a campaign row names no connection). */
function connectionsOf(seen: Seen, workspace: string): Json[] {
  const items = [...seen.campaigns.values()].filter((c) => c.workspace === workspace)
    .map(({ item }) => Object.fromEntries(CAMPAIGN_FIELDS.filter((f) => item[f] !== undefined).map((f) => [f, item[f]])))
  const own = [...seen.connections.values()].filter((c) => c.workspace === workspace)
  if (own.length === 0 && items.length === 0) return []
  const list = own.length ? own : [{ id: `conn_${workspace}`, workspace, platform: 'google', account_id: '000-000-0000', account_name: `${workspace} account`, currency: String(items[0]?.currency ?? 'USD') }]
  return list.map((c, i) => ({ ...c, campaigns: i === 0 ? (items.length ? { items } : { count: 0 }) : { count: 0 } }))
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>()
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)))
}

/** A sandbox key value for a placeholder: it works only against the recorded world. */
function freshKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  return `svc_test_${[...randomBytes(32)].map((b) => alphabet[b % alphabet.length]).join('')}`
}
