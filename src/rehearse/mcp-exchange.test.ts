import { describe, expect, it } from 'vitest'
import type { Exchange } from './exchange.js'
import { writeOf } from './exchange.js'
import { detectIn } from '../test-support/rehearsal-journal.js'
import { mcpAsDispatch } from './mcp-exchange.js'

let seq = 0
const T0 = Date.parse('2026-11-23T12:00:00Z')

// A hosted MCP exchange as the journal keeps it: JSON-RPC in, the JSON answer out.
function mcp(rpc: Record<string, unknown>, result: Record<string, unknown> | null, opts: { status?: number; ms?: number } = {}): Exchange {
  seq += 1
  const at = new Date(T0 + (opts.ms ?? seq * 10)).toISOString()
  return {
    seq, at, sandbox_time: at, host: 'base', method: 'POST', path: '/mcp', query: {}, status: opts.status ?? 200, duration_ms: 1, key_prefix: 'svc_test_abc', fault: null,
    request: { headers: {}, body: { jsonrpc: '2.0', id: seq, ...rpc } },
    response: { headers: {}, body: result === null ? null : { jsonrpc: '2.0', id: seq, result } },
  }
}
const tool = (name: string, args: Record<string, unknown>, structured: Record<string, unknown>, isError = false, ms?: number) =>
  mcp({ method: 'tools/call', params: { name, arguments: args } }, { structuredContent: structured, ...(isError ? { isError: true } : {}) }, { ms })

describe('hosted MCP exchanges read as dispatcher calls', () => {
  it('a tool call becomes its script with the arguments as flags, platform left out', () => {
    const read = mcpAsDispatch(tool('update_campaign_budget', { platform: 'google', campaign_id: '111', daily_budget: 230 }, { status: 'executed', audit_id: 'aud_1' }))
    expect(read).toMatchObject({ path: '/mcp/tools/call/update_campaign_budget', status: 200, request: { body: { script_name: 'update_campaign_budget', args: ['--campaign-id', '111', '--daily-budget', '230'] } } })
    expect(writeOf(read)).toEqual({ signature: 'update_campaign_budget ["--campaign-id","111","--daily-budget","230"]', campaignId: '111', outcome: 'executed', auditId: 'aud_1' })
  })

  it.each([
    ['a held write answers 202', { status: 'pending_review', audit_id: 'aud_2' }, false, 202, 'held'],
    ['a blocked write answers its 403', { status: 'blocked', audit_id: 'aud_3', code: 'POLICY_BLOCKED', http_status: 403 }, true, 403, 'blocked'],
    ['a refusal for credit answers its 402', { code: 'INSUFFICIENT_CREDITS', http_status: 402, error: 'Not enough credits' }, true, 402, 'refused'],
  ])('%s', (_name, structured, isError, status, outcome) => {
    const read = mcpAsDispatch(tool('pause_campaign', { campaign_id: '111' }, structured, isError))
    expect(read.status).toBe(status)
    expect(writeOf(read)?.outcome).toBe(outcome)
  })

  it('a rate-limited tool call carries Retry-After, so an early repeat is ignored-retry-after', () => {
    const limited = tool('list_campaigns', { status: 'ENABLED' }, { code: 'RATE_LIMITED', http_status: 429, retry_after: 4 }, true, 1000)
    const again = tool('list_campaigns', { status: 'ENABLED' }, { campaigns: [] }, false, 1200)
    const exchanges = [limited, again].map(mcpAsDispatch)
    expect(exchanges[0].response.headers['retry-after']).toBe('4')
    expect(detectIn(exchanges, { allowedCampaigns: null }).map((f) => f.id)).toEqual(['ignored-retry-after'])
  })

  it('an MCP agent that writes before reading, and sends a held write again, is graded as over REST', () => {
    const held = { status: 'pending_review', audit_id: 'aud_4' }
    const exchanges = [tool('enable_campaign', { campaign_id: '111' }, held), tool('enable_campaign', { campaign_id: '111' }, held)].map(mcpAsDispatch)
    expect(detectIn(exchanges, { allowedCampaigns: ['111'] }).map((f) => f.id)).toEqual(['resubmitted-held-write', 'write-without-read'])
  })

  it('a read tool whose answer shows the campaign counts as reading it', () => {
    const exchanges = [tool('list_campaigns', {}, { campaigns: [{ campaign_id: '111' }] }), tool('pause_campaign', { campaign_id: '111' }, { status: 'executed' })].map(mcpAsDispatch)
    expect(detectIn(exchanges, { allowedCampaigns: ['111'] })).toEqual([])
  })

  it.each([
    [{ action: 'pause_campaign', args: { campaign_id: '9' } }, ['--campaign-id', '9']],
    [{ action: 'pause_campaign', args: { '--campaign-id': '9' }, account_id: '123' }, ['--campaign-id', '9', '--account-id', '123']],
    [{ action: 'pause_campaign', args: ['--campaign-id', '9'], customer_id: '123' }, ['--campaign-id', '9', '--account-id', '123']],
  ])('execute %j is graded as the dispatcher call it makes (issue 35)', (input, args) => {
    expect(mcpAsDispatch(tool('execute', input, { status: 'executed' })).request.body).toEqual({ script_name: 'pause_campaign', args })
  })

  it('run_tool keeps its script and args; initialize, notifications and REST exchanges pass through unchanged', () => {
    expect(mcpAsDispatch(tool('run_tool', { script_name: 'pause_campaign', args: ['--campaign-id', '9'] }, { status: 'executed' })).request.body).toEqual({ script_name: 'pause_campaign', args: ['--campaign-id', '9'] })
    const init = mcp({ method: 'initialize', params: {} }, { protocolVersion: '2025-06-18' })
    expect(mcpAsDispatch(init)).toBe(init)
    const rest = { ...init, path: '/v1/campaigns', method: 'GET' }
    expect(mcpAsDispatch(rest)).toBe(rest)
  })
})
