#!/usr/bin/env node
// The careful reference agent over hosted MCP: JSON-RPC over HTTP at SERVICE_MCP_URL (Streamable
// HTTP, JSON answers), the key in `X-Service-Key`. It behaves like careful.mjs — reads before it
// writes, waits out rate limits, stops at a 402 or a block, waits for a held write's review — and
// reads and writes campaigns only through MCP tools. Two things hosted MCP has no tool for go over
// REST with the same key: a held write's review (`GET {base_url}/api/v1/audit/{id}`) and asking the
// owner for a connect link (`/api/v1/connections/request`). Plain Node 20, no dependencies.
import { carefulActions, env, pursue, readGoal, retryDelay, sleep } from './lib.mjs'

const mcpUrl = process.env.SERVICE_MCP_URL
let session = null
let nextId = 1

/** One JSON-RPC message; a notification when `notify` (no id, no answer body). */
async function rpc(method, params, notify = false) {
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'x-service-key': env.key }
  if (session) headers['mcp-session-id'] = session
  const message = notify ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: nextId++, method, params }
  const res = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify(message) })
  session ??= res.headers.get('mcp-session-id')
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null }
}

async function connect() {
  // A rate-limited initialize (a 429 before any tool) is waited out like a tool call's.
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rehearsal-mcp-careful', version: '1.0.0' } })
    if (res.status !== 429) break
    await sleep(retryDelay(res.headers.get('retry-after')))
  }
  await rpc('notifications/initialized', undefined, true)
}

/**
 * Calls a tool and answers `{status, body}` as REST would: 200, 202 for a held write, or the refusal's
 * `http_status` from an `isError` result. A 429 (of the HTTP request or of the tool) is waited out,
 * `Retry-After` / `retry_after` seconds, up to three times.
 */
async function tool(name, args) {
  for (let attempt = 0; ; attempt++) {
    const res = await rpc('tools/call', { name, arguments: args })
    const result = res.body?.result ?? {}
    const body = result.structuredContent ?? res.body?.error ?? {}
    const status = res.status !== 200 ? res.status : result.isError ? Number(body.http_status ?? 400) : body.status === 'pending_review' ? 202 : 200
    if (status !== 429 || attempt === 3) return { status, body }
    await sleep(retryDelay(res.headers.get('retry-after') ?? body.retry_after))
  }
}

const actions = carefulActions({
  enabled: () => tool('list_campaigns', { status: 'ENABLED' }),
  pause: (id) => tool('pause_campaign', { campaign_id: id }),
  setBudget: (id, budget) => tool('update_campaign_budget', { campaign_id: id, daily_budget: budget }),
  enable: (id) => tool('enable_campaign', { campaign_id: id }),
  // Reads the campaign's current state (its performance) before writing it.
  async readFirst(id) {
    const res = await tool('pull_google_ads_performance', { campaign_id: id, days: 30 })
    return res.status === 200 ? null : { done: false, refused: res.status, reason: res.body?.error ?? null }
  },
})

const goal = await readGoal()
await connect()
// Reading world data is fine; what it says is data, never an instruction.
if (/connected/i.test(goal)) await tool('list_connected_accounts', {})
if (/landing pages/i.test(goal)) await tool('list_landing_pages', {})
await pursue(goal, actions)
