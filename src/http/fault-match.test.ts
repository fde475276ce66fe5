import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, campaignsByStatus, startSandbox } from '../test-support/http.js'
import { connectHttp } from '../mcp/mcp-test-support.js'
import { flagValue } from './fault-match.js'

/** Issue 19 item 3: faults that match on flags, JSONPath over the body and MCP tool calls; near misses. */

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())
beforeEach(async () => {
  await sb.control.reset('default')
  await sb.base('DELETE', '/_sandbox/faults/near-misses')
})

const addFault = (match: unknown) => sb.base('POST', '/_sandbox/faults', { body: { match, status: 418, body: { teapot: true } } })
const budget = (amount: string, key: string = KEYS.owner) =>
  sb.base('POST', '/api/v1/tools/run', { key, body: { script_name: 'update_campaign_budget', args: ['--campaign-id', '1', '--daily-budget', amount, '--platform', 'google'] } })
const list = (args: string[] = ['--platform', 'google']) => sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'list_campaigns', args } })

describe('flag values in dispatcher args', () => {
  it.each([
    [['--campaign-id', '42'], '--campaign-id', '42'],
    [['--campaign-id=42'], 'campaign-id', '42'],
    [['--dry-run', '--campaign-id', '1'], '--dry-run', true],
    [['--campaign-id', '1'], '--daily-budget', undefined],
    ['not a list', '--x', undefined],
  ])('reads %j for %s as %j', (args, flag, expected) => {
    expect(flagValue(args, flag)).toBe(expected)
  })
})

describe('sharper fault matching', () => {
  it.each([
    ['a flag that is present', { flags: { '--daily-budget': true } }, () => budget('500'), () => list()],
    ['a flag with a value', { flags: { 'daily-budget': 500 } }, () => budget('500'), () => budget('400')],
    ['a JSONPath equality on the body', { body: [{ path: '$.args[3]', equals: '500' }] }, () => budget('500'), () => budget('400')],
    ['a JSONPath regex', { body: [{ path: '$.script_name', matches: '^update_' }] }, () => budget('1'), () => list()],
    ['a JSONPath that must be absent', { path: '/api/v1/tools/run', body: [{ path: '$.platform', exists: false }] }, () => list(), () => sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'list_campaigns', args: [], platform: 'google' } })],
  ])('fires on %s and lets other requests through', async (_name, match, hit, miss) => {
    expect((await addFault(match)).status).toBe(201)
    expect((await miss()).status).not.toBe(418)
    expect((await hit()).status).toBe(418)
  })

  it('fires on an MCP tools/call by tool name and arguments, and not on other tools', async () => {
    const { paused } = await campaignsByStatus(sb)
    await addFault({ mcp_tool: 'enable_campaign', mcp_arguments: { campaign_id: paused } })
    const client = await connectHttp(sb.baseUrl, { headers: { 'X-Service-Key': KEYS.agent } })
    try {
      await expect(client.callTool({ name: 'list_campaigns', arguments: {} })).resolves.toBeDefined()
      await expect(client.callTool({ name: 'enable_campaign', arguments: { campaign_id: paused } })).rejects.toThrow(/teapot/)
    } finally {
      await client.close().catch(() => undefined)
    }
  })

  it.each([
    [{ flags: { 'Bad Flag': true } }, 'flag name'],
    [{ body: [{ path: 'args[0]' }] }, 'JSONPath'],
    [{ body: [{ path: '$.x', matches: '(' }] }, 'regular expression'],
    [{ body: [{ path: '$.x', equals: 1, contains: 'a' }] }, 'at most one'],
  ])('refuses the rule %j with a 400 that says what is wrong', async (match, message) => {
    const answer = await addFault(match)
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body)).toContain(message)
    expect((await sb.base('GET', '/_sandbox/faults')).body.faults).toEqual([])
  })
})

describe('GET /_sandbox/faults/near-misses', () => {
  it('lists requests no rule matched, closest rule first, with each failed condition', async () => {
    const near = (await addFault({ path: '/api/v1/tools/run', flags: { '--daily-budget': '900' } })).body.id as string
    const far = (await addFault({ method: 'DELETE', host: 'api', path: '/v1/nothing' })).body.id as string
    expect((await budget('500')).status).not.toBe(418)
    const view = await sb.base('GET', '/_sandbox/faults/near-misses')
    expect(view.status).toBe(200)
    const [latest] = view.body.near_misses
    expect(latest.request).toMatchObject({ method: 'POST', host: 'base', path: '/api/v1/tools/run', script_name: 'update_campaign_budget' })
    expect(latest.rules.map((r: { rule_id: string }) => r.rule_id)).toEqual([near, far])
    expect(latest.rules[0].failed).toEqual([{ condition: 'flags.--daily-budget', expected: '900', actual: '500' }])
    expect(latest.rules[1].failed.map((f: { condition: string }) => f.condition)).toEqual(['method', 'host', 'path'])
    const onlyFar = await sb.base('GET', `/_sandbox/faults/near-misses?rule=${far}&limit=1`)
    expect(onlyFar.body.near_misses[0].rules.map((r: { rule_id: string }) => r.rule_id)).toEqual([far])
  })

  it('never shows a key value sent as data, and keeps only the most recent 100', async () => {
    await addFault({ body: [{ path: '$.args[1]', equals: 'x' }] })
    await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'list_campaigns', args: ['--platform', KEYS.reporting] } })
    const view = await sb.base('GET', '/_sandbox/faults/near-misses')
    expect(JSON.stringify(view.body)).not.toContain(KEYS.reporting)
    expect(JSON.stringify(view.body)).not.toContain(KEYS.owner)
    for (let i = 0; i < 105; i++) await sb.api('GET', '/v1/me', { key: KEYS.owner })
    expect((await sb.base('GET', '/_sandbox/faults/near-misses')).body.near_misses).toHaveLength(100)
    expect((await sb.base('DELETE', '/_sandbox/faults/near-misses')).body).toEqual({ removed: 100 })
  })

  it('answers 400 for a bad limit', async () => {
    const answer = await sb.base('GET', '/_sandbox/faults/near-misses?limit=0')
    expect(answer.status).toBe(400)
    expect(answer.body.code).toBe('INVALID_REQUEST')
  })
})
