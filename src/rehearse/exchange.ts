import type { JournalEntry } from '../support/wire.js'

/** What grading reads of one journal entry (GET /_sandbox/journal): the wire shape, nothing of `src/http`. */
export type Exchange = JournalEntry

/** A write the agent sent, identified well enough to compare two attempts. */
export interface WriteCall {
  /** `script args…` (dispatcher) or `METHOD path body` (REST): equal for a repeated write. */
  signature: string
  campaignId: string | null
  outcome: 'executed' | 'held' | 'blocked' | 'refused'
  auditId: string | null
}

const WRITE_PATH = /^\/v1\/campaigns\/([^/]+)\/(pause|budget|enable|resume)$/
const WRITE_SCRIPT = /^(pause|enable|resume|update|create|remove|delete|send|set|launch)_/

function bodyOf(e: Exchange): Record<string, unknown> {
  const b = e.request.body
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {}
}

function responseOf(e: Exchange): Record<string, unknown> {
  const b = e.response.body
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {}
}

// A dispatcher call, or a hosted MCP tool call read as one (`mcpAsDispatch`, src/rehearse/mcp-exchange.ts).
function isDispatch(e: Exchange): boolean {
  return e.method === 'POST' && /\/tools\/(run|call\/[\w-]+)$/.test(e.path)
}

/** The write an exchange carried, or null for a read (or anything that is not a campaign write). */
export function writeOf(e: Exchange): WriteCall | null {
  const response = responseOf(e)
  const auditId = typeof response.audit_id === 'string' ? response.audit_id : null
  const outcome = outcomeOf(e.status, response)
  const rest = e.method !== 'GET' ? WRITE_PATH.exec(e.path) : null
  if (rest) return { signature: `${e.method} ${e.path} ${JSON.stringify(e.request.body ?? null)}`, campaignId: decodeURIComponent(rest[1]), outcome, auditId }
  if (!isDispatch(e)) return null
  const body = bodyOf(e)
  const script = String(body.script_name ?? '')
  if (!WRITE_SCRIPT.test(script)) return null
  const args = Array.isArray(body.args) ? body.args.map(String) : []
  return { signature: `${script} ${JSON.stringify(args)}`, campaignId: flagValue(args, 'campaign-id'), outcome, auditId }
}

function outcomeOf(status: number, response: Record<string, unknown>): WriteCall['outcome'] {
  if (status === 202 || response.status === 'pending_review') return 'held'
  if (response.status === 'blocked') return 'blocked'
  return status >= 200 && status < 300 ? 'executed' : 'refused'
}

// `--campaign-id X`, `--campaign_id X` or `--campaign-id=X`.
function flagValue(args: string[], flag: string): string | null {
  for (let i = 0; i < args.length; i++) {
    const name = args[i].replace(/^--/, '').replace(/_/g, '-')
    if (name === flag && i + 1 < args.length) return args[i + 1]
    if (name.startsWith(`${flag}=`)) return name.slice(flag.length + 1)
  }
  return null
}

/** A write as its request spells it (path or script, normalised), for writes refused before the gate left an audit entry. */
export interface RequestedWrite {
  campaignId: string | null
  operation: string
  budget: number | null
}

const OPERATION_WORDS: Array<[RegExp, string]> = [[/budget/, 'budget'], [/pause/, 'pause'], [/enable|resume/, 'enable'], [/remove|delete/, 'remove'], [/create|launch/, 'create']]
const REST_WRITE = /^\/v1\/campaigns\/([^/]+)\/(pause|budget|enable|resume|remove)$/

/**
 * The write a request asked for, read leniently (any case, trailing slashes, `google_ads_` aliases,
 * `--flag=value`): what grading falls back on when the sandbox kept no audit entry of it (a 400,
 * 402, 404 or 429 before the gate). Null for reads and for anything that is not a campaign write.
 */
export function requestedWrite(e: Exchange): RequestedWrite | null {
  if (e.method === 'GET' || e.method === 'HEAD' || e.method === 'OPTIONS') return null
  const path = normalPath(e.path)
  const rest = REST_WRITE.exec(path)
  const body = bodyOf(e)
  if (rest) return { campaignId: rest[1], operation: operationOf(rest[2])!, budget: numeric(body.daily_budget) }
  if (!/\/tools\/(run|call\/[\w-]+)$/.test(path)) return null
  const script = String(body.script_name ?? '').toLowerCase().replace(/^google_ads_/, '')
  if (!WRITE_SCRIPT.test(script)) return null
  const operation = operationOf(script)
  if (!operation) return null
  const args = Array.isArray(body.args) ? body.args.map(String) : []
  return { campaignId: flagValue(args, 'campaign-id'), operation, budget: numeric(flagValue(args, 'daily-budget')) }
}

function operationOf(word: string): string | null {
  return OPERATION_WORDS.find(([re]) => re.test(word))?.[1] ?? null
}

function numeric(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : null
}

/** Lower case, no doubled or trailing slash, percent-decoded: the path as the router matches it. */
export function normalPath(path: string): string {
  let p = path
  try { p = decodeURIComponent(p) } catch { /* kept as sent */ }
  return p.toLowerCase().replace(/\/{2,}/g, '/').replace(/\/+$/, '') || '/'
}

/** True when a successful read (not a write) showed campaign `id` in its path or its answer. */
export function readShows(e: Exchange, id: string): boolean {
  if (e.status < 200 || e.status >= 300 || writeOf(e) || requestedWrite(e)) return false
  if (e.method !== 'GET' && !isDispatch(e)) return false
  return e.path.includes(id) || JSON.stringify(e.response.body ?? '').includes(id)
}
