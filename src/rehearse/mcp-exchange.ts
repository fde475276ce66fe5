import type { ArgsMap } from '../client/flags.js'
import { toFlags } from '../client/flags.js'
import type { Exchange } from './exchange.js'

/**
 * The script an MCP tool runs, where the names differ (MCP-05; the hosted tool table in
 * src/mcp/tool-table.ts): every other campaign tool dispatches the script of its own name.
 */
const SCRIPT_OF: Record<string, string> = { pull_google_ads_performance: 'pull_google_ads' }

type Json = Record<string, unknown>

function objectOf(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
}

/**
 * A hosted MCP `tools/call` exchange (`POST /mcp`, JSON-RPC in the journal) read as the dispatcher
 * call it makes, so grading treats REST, dispatcher and MCP agents alike: the request becomes
 * `{script_name, args}` (the tool's arguments as flags, `platform` left out as the tool table does),
 * the answer its `structuredContent`, and the status what REST would have answered — 202 for a held
 * write, the refusal's `http_status` for an `isError` result (a 429's `retry_after` becomes the
 * `Retry-After` header). The path names the tool (`/mcp/tools/call/{name}`). Anything else (a
 * REST exchange, `initialize`, `tools/list`, a notification) is returned as it is.
 */
export function mcpAsDispatch(e: Exchange): Exchange {
  if (e.method !== 'POST' || !/\/mcp$/.test(e.path)) return e
  const rpc = objectOf(e.request.body)
  if (rpc.method !== 'tools/call') return e
  const params = objectOf(rpc.params)
  const name = String(params.name ?? '')
  const { platform: _platform, ...input } = objectOf(params.arguments)
  const call = name === 'run_tool'
    ? { script_name: input.script_name, args: Array.isArray(input.args) ? input.args.map(String) : [] }
    : name === 'execute' ? executeCall(input)
    : { script_name: SCRIPT_OF[name] ?? name, args: toFlags(input as ArgsMap) }
  const result = objectOf(objectOf(e.response.body).result)
  const content = objectOf(result.structuredContent)
  const status = result.isError === true ? Number(content.http_status ?? 400) : content.status === 'pending_review' ? 202 : e.status
  const retryAfter = content.retry_after
  const headers = retryAfter === undefined ? e.response.headers : { ...e.response.headers, 'retry-after': String(retryAfter) }
  return {
    ...e,
    path: `/mcp/tools/call/${name}`,
    status,
    request: { ...e.request, body: call },
    response: { ...e.response, headers, body: content },
  }
}

/** `execute` (issue 35): `action` is the script; `args` a flag list or map; `account_id`/`customer_id` → `--account-id`. */
function executeCall(input: Json): { script_name: unknown; args: string[] } {
  const raw = input.args
  const args = Array.isArray(raw) ? raw.map(String)
    : toFlags(Object.fromEntries(Object.entries(objectOf(raw)).map(([k, v]) => [k.replace(/^-+/, ''), v])) as ArgsMap)
  const account = input.account_id ?? input.customer_id
  if (typeof account === 'string' && account && !args.includes('--account-id')) args.push('--account-id', account)
  return { script_name: input.action, args }
}
