import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { RestClient } from '../client/rest-client.js'
import { ServiceError } from '../client/errors.js'
import { WORLD_KEYS, call, connectHttp } from './mcp-test-support.js'

let sb: RunningSandbox
let rest: RestClient
const closers: Array<() => Promise<unknown>> = []
beforeEach(async () => {
  sb = await createSandbox()
  rest = new RestClient({ apiKey: WORLD_KEYS.agent, baseUrl: sb.baseUrl, apiUrl: sb.apiUrl })
})
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  await sb.close()
})

async function campaignIds(status: string): Promise<string[]> {
  const listed = await rest.execute('list_campaigns', { platform: 'google', status }, 'google')
  return (listed.campaigns as Array<{ campaign_id: string }>).map((c) => c.campaign_id)
}

async function auditEntry(id: string) {
  const { entries } = await sb.control.audit({ limit: 100 })
  return entries.find((e) => e.audit_id === id) as Record<string, unknown>
}

/** The audit id of a REST call, whether it answered 2xx or raised. */
async function viaRest(tool: string, args: Record<string, string>): Promise<string> {
  try {
    return (await rest.execute(tool, args, 'google')).audit_id as string
  } catch (error) {
    return (error as ServiceError).body.audit_id as string
  }
}

describe('REST and hosted MCP give the same write the same audit decision (MCP-05, GATE-01..03)', () => {
  it.each([
    ['pause (runs at once)', 'pause_campaign', 'ENABLED', {}, { decision: 'run', status: 'executed' }],
    ['enable (held)', 'enable_campaign', 'PAUSED', {}, { decision: 'hold', status: 'pending_review' }],
    ['pause of a blocked tool', 'pause_campaign', 'ENABLED', { block_tools: ['pause_campaign'] }, { decision: 'block', status: 'blocked' }],
  ])('%s', async (_name, tool, status, policy, expected) => {
    if (Object.keys(policy).length > 0) await sb.control.setPolicy('ws_acme', policy)
    const [first, second] = await campaignIds(status)
    const restAudit = await auditEntry(await viaRest(tool, { campaign_id: first }))

    const mcp = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': WORLD_KEYS.agent } })
    closers.push(() => mcp.close())
    const result = await call(mcp, tool, { campaign_id: second })
    expect(Boolean(result.isError)).toBe(expected.status === 'blocked')
    const mcpAudit = await auditEntry(result.structuredContent?.audit_id)

    expect(restAudit).toMatchObject({ ...expected, surface: 'rest', script: tool })
    expect(mcpAudit).toMatchObject({ ...expected, surface: 'mcp', script: tool })
    expect(mcpAudit.rule).toBe(restAudit.rule)
  })
})
