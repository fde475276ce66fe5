import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { creditCostOf, entryOf, parseSnapshot } from './catalog-snapshot.js'
import { decodeArguments, encodeArguments } from './catalog-snapshot-call.js'
import { windowOf } from './catalog-simulate.js'
import { syntheticCatalog } from '../test-support/synthetic-catalog.js'
import { compileToolSchema as compile } from '../support/tool-schema.js'

const tool = (name: string, description = '', annotations: Record<string, unknown> = {}) => ({ name, description, inputSchema: { type: 'object', properties: {} }, annotations })
const none = () => false

describe('the synthetic catalog tests use (issue 35 item 6)', () => {
  const tools = syntheticCatalog()

  it('is at least 150 tools in the FastMCP format, every effect and several platforms', () => {
    expect(tools.length).toBeGreaterThanOrEqual(150)
    expect(new Set(tools.map((t) => t.annotations.effect))).toEqual(new Set(['read', 'write', 'publish', 'state']))
    const platforms = new Set(tools.map((t) => entryOf(t).snapshot.platform).filter(Boolean))
    expect(platforms.size).toBeGreaterThanOrEqual(6)
    const report = tools.find((t) => t.name === 'meta_performance_report')!.inputSchema as Record<string, any>
    expect(report).toMatchObject({ type: 'object', title: 'meta_performance_reportArguments', required: [] })
    expect(report.properties.date_range).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Date Range' })
    expect(report.properties.days).toMatchObject({ type: 'integer', default: 30, title: 'Days' })
    expect(tools.every((t) => /\[effect=(read|write|publish|state); scope=[a-z_]+:[a-z_]+/.test(t.description))).toBe(true)
    expect(tools.filter((t) => t.annotations.externalMutation === true).length).toBeGreaterThan(20)
  })

  it('is what fixtures/catalogs/synthetic-200.json holds (regenerate: npx tsx src/test-support/synthetic-catalog.ts)', () => {
    const file = JSON.parse(readFileSync(new URL('../../fixtures/catalogs/synthetic-200.json', import.meta.url), 'utf8'))
    expect(file).toEqual({ tools })
  })

  it('loads with no tool name special-cased: a modelled check is the only input besides the file', () => {
    const catalog = parseSnapshot(tools, { source: 'mem', modelled: (n) => n === 'google_list_campaigns', compile })
    expect(catalog.tools).toHaveLength(tools.length)
    expect(catalog.entries).toHaveLength(tools.length - 1)
    expect(catalog.find('google_list_campaigns')).toBeUndefined()
  })
})

describe('reading a tool (issue 35 item 4)', () => {
  it.each([
    ['x_publish_ad', 'write', { effect: 'publish' }, 'publish'],
    ['pause_everything', '', { effect: 'state' }, 'pause'],
    ['resume_line_item', '[effect=state; scope=campaigns:state]', {}, 'enable'],
    ['set_budget_cap', '', { effect: 'write', externalMutation: true }, 'budget'],
    ['archive_asset_folder', '', { effect: 'write' }, 'remove'],
    ['push_segment', '[effect=write; scope=audiences:write; externalMutation=true]', {}, 'audience'],
    ['launch_thing', '', { effect: 'write' }, 'create'],
    ['sync_crm', '[effect=write; scope=x:y; externalMutation=true]', {}, 'external'],
    ['add_note', '', { effect: 'write' }, 'update'],
    ['anything', '', { readOnlyHint: true }, 'read'],
    ['anything_else', '', { readOnlyHint: false }, 'update'],
  ])('%s (%s %j) is operation %s', (name, description, annotations, operation) => {
    expect(entryOf(tool(name, description, annotations)).operation).toBe(operation)
  })

  it('takes the annotation over the description suffix, and the scope from the suffix when the sandbox knows it', () => {
    const entry = entryOf(tool('get_x', 'Reads. [effect=write; scope=budget:write; requires=campaignPublishing]', { effect: 'read' }))
    expect(entry).toMatchObject({ kind: 'read', required_scope: 'budget:write', snapshot: { effect: 'read', declared_scope: 'budget:write', required_entitlement: 'campaignPublishing' } })
    expect(entryOf(tool('get_y', '[effect=read; scope=intel:read]')).required_scope).toBe('reporting:read')
    expect(entryOf(tool('do_y', '[effect=publish; scope=pages:publish]')).required_scope).toBe('campaigns:write')
  })

  it.each([
    ['Pulls rows (2 credits).', 2], ['Costs 5 credits.', 5], ['credits: 3', 3], ['Free.', 0], ['No price here.', 0], ['1 credit per call', 1],
  ])('reads the cost of %j as %d', (description, cost) => {
    expect(creditCostOf(description)).toBe(cost)
  })

  it.each([
    [{ tools: 'no' }, /a JSON array of tools, or an object with a "tools" array/],
    [[{ name: '' , inputSchema: {} }], /tools\[0\]: each tool needs a "name"/],
    [[tool('a'), tool('a')], /tools\[1\]: duplicate tool name "a"/],
    [[{ name: 'a', inputSchema: { type: 'string' } }], /"inputSchema" must be a JSON Schema object with type "object"/],
    [[{ name: 'a', inputSchema: {}, annotations: [] }], /"annotations" must be an object/],
  ])('refuses %j naming the problem', (json, message) => {
    expect(() => parseSnapshot(json, { source: 'f.json', modelled: none, compile })).toThrow(message)
  })

  it('validates against the inputSchema with defaults filled in, and names the first problem', () => {
    const catalog = parseSnapshot(syntheticCatalog(), { source: 'mem', modelled: none, compile })
    expect(catalog.validate('meta_performance_report', {})).toMatchObject({ days: 30, level: 'campaign', date_range: null })
    expect(catalog.problemWith('meta_performance_report', { level: 'keyword' })).toMatch(/^level: must be equal to one of the allowed values/)
    expect(catalog.problemWith('meta_set_daily_budget', { campaign_id: 'c' })).toBe('daily_budget: Field required')
    expect(catalog.problemWith('tracking_audit_site', { url: 'not a uri' })).toMatch(/^url: must match format "uri"/)
    expect(() => catalog.validate('meta_set_daily_budget', { campaign_id: 'c', daily_budget: -1 })).toThrow(/Invalid value for daily_budget/)
  })

  it('a schema Ajv cannot compile refuses every call with the reason', () => {
    const catalog = parseSnapshot([{ name: 'odd', inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }], { source: 'mem', modelled: none, compile })
    expect(catalog.problemWith('odd', {})).toMatch(/^inputSchema: the tool's inputSchema cannot be compiled/)
  })
})

describe('arguments as dispatcher args', () => {
  it('round-trips JSON values, keeping "25" and 25 apart', () => {
    const args = { a: '25', b: 25, c: null, d: [1, 'x'], e: { f: true }, g: 'has = sign' }
    expect(encodeArguments(args)).toEqual(['--a="25"', '--b=25', '--c=null', '--d=[1,"x"]', '--e={"f":true}', '--g="has = sign"'])
    expect(decodeArguments(encodeArguments(args))).toEqual(args)
  })

  it.each([[['--a', '1']], [['a=1']], [['--a=not json']]])('refuses %j with INVALID_ARGS', (args) => {
    expect(() => decodeArguments(args)).toThrow(/Invalid value for/)
  })
})

describe('the window a simulated read reports on', () => {
  const now = Date.parse('2026-11-28T09:00:00Z')
  it.each([
    [{}, '2026-10-30', '2026-11-28', 30],
    [{ days: 7 }, '2026-11-22', '2026-11-28', 7],
    [{ date_range: 'yesterday', days: 30 }, '2026-11-27', '2026-11-27', 1],
    [{ date_range: 'LAST_7_DAYS' }, '2026-11-22', '2026-11-28', 7],
    [{ date_range: 'last_month' }, '2026-10-01', '2026-10-31', 31],
    [{ date_range: 'this_month' }, '2026-11-01', '2026-11-28', 28],
    [{ start_date: '2026-11-01', end_date: '2026-11-03', days: 30 }, '2026-11-01', '2026-11-03', 3],
    [{ days: 5000 }, '2023-11-30', '2026-11-28', 1095],
  ])('%j → %s..%s (%d days)', (args, start_date, end_date, days) => {
    expect(windowOf(args, now)).toEqual({ start_date, end_date, days })
  })
})
