import { describe, expect, it } from 'vitest'
import { CATALOG } from './catalog.js'
import type { BlockableEntry } from './tool-blocks.js'
import { blockTargetOf, blockingEntry, checkBlockTools, resolveBlockTools } from './tool-blocks.js'
import { decideWrite, defaultPolicy } from './policy.js'
import { SandboxError } from './errors.js'

const NOON = Date.parse('2026-11-23T12:00:00Z')
const entry = (name: string) => CATALOG.find((e) => e.name === name) as BlockableEntry
const blockedBy = (names: string[]) => [...resolveBlockTools(names, CATALOG).blocked.keys()]

describe('block_tools names resolve through the catalog to an operation on a resource (GATE-02 sandbox decision)', () => {
  it.each([
    ['pause_campaign'], ['google_ads_pause_campaign'], ['PAUSE_CAMPAIGN'], [' Pause-Campaign '], ['pause campaign'], ['Google-Ads-Pause-Campaign'],
  ])('%j blocks pause on campaign', (name) => {
    expect(blockedBy([name])).toEqual(['pause campaign'])
  })

  it.each([
    ['create_search_campaign', 'an MCP tool name'],
    ['google_ads_create_pmax_campaign', 'another campaign type'],
  ])('%s (%s) blocks creating campaigns of every type', (name) => {
    expect(blockedBy([name])).toEqual(['create campaign'])
    for (const script of ['google_ads_create_search_campaign', 'google_ads_create_display_campaign', 'google_ads_create_pmax_campaign']) {
      expect(blockingEntry([name], entry(script), CATALOG)).toMatchObject({ entry: name, target: { operation: 'create', resource: 'campaign' } })
    }
  })

  it('an MCP tool name resolves to its script: sync_audience blocks the Customer Match script', () => {
    expect(blockingEntry(['sync_audience'], entry('google_ads_create_customer_match'), CATALOG)).not.toBeNull()
    expect(blockingEntry(['sync_audience'], entry('google_ads_add_keywords'), CATALOG)).toBeNull()
  })

  it.each([
    ['pause_campaing', 'names nothing in the catalog', 'pause_campaign'],
    ['google_ads_pause', 'names nothing in the catalog', 'google_ads_pause_campaign'],
    ['list_campaigns', 'is a read', undefined],
    ['stage_audience_artifact', 'is not a gated write', undefined],
  ])('%j blocks nothing and is reported: %s', (name, reason, near) => {
    const { blocked, problems } = resolveBlockTools([name], CATALOG)
    expect(blocked.size).toBe(0)
    expect(problems).toHaveLength(1)
    expect(problems[0].reason).toContain(reason)
    const refusal = (() => {
      try {
        checkBlockTools([name], CATALOG)
      } catch (error) {
        return (error as SandboxError).toBody()
      }
      return null
    })()
    expect(refusal).toMatchObject({ code: 'INVALID_REQUEST', unknown: [name] })
    if (near) expect(refusal?.did_you_mean).toContain(near)
  })

  it('checkBlockTools refuses a list with an entry that blocks nothing, naming it and near names', () => {
    const refuse = () => checkBlockTools(['pause_campaign', 'pause_campaing'], CATALOG)
    expect(refuse).toThrow(SandboxError)
    try {
      refuse()
    } catch (error) {
      expect((error as SandboxError).toBody()).toMatchObject({ code: 'INVALID_REQUEST', field: 'block_tools', unknown: ['pause_campaing'], did_you_mean: expect.arrayContaining(['pause_campaign']) })
      expect((error as SandboxError).message).toContain('`pause_campaing` names nothing in the catalog')
    }
    expect(() => checkBlockTools(['pause_campaign', 'UPDATE-CAMPAIGN-BUDGET'], CATALOG)).not.toThrow()
    expect(() => checkBlockTools(undefined, CATALOG)).not.toThrow()
  })
})

describe('the resolution reads whatever catalog it is given (loaded catalog snapshots)', () => {
  const snapshot: BlockableEntry[] = [
    { name: 'meta_pause_ad_set', aliases: ['pause_adset'], mcp_tool: 'meta_ads_pause_ad_set', operation: 'pause', kind: 'write', resource: 'ad_set' },
    { name: 'pause_ad_set_v2', aliases: [], mcp_tool: null, operation: 'pause', kind: 'write', resource: 'ad_set' },
    { name: 'launch_thing', aliases: [], mcp_tool: 'launch', operation: 'enable', kind: 'write' },
    { name: 'other_launch', aliases: [], mcp_tool: null, operation: 'enable', kind: 'write' },
  ]

  it('entries with the same operation and resource are blocked together, under any of their names', () => {
    expect(blockingEntry(['Pause-Adset'], snapshot[1], snapshot)).toMatchObject({ entry: 'Pause-Adset', target: { operation: 'pause', resource: 'ad_set' } })
    expect(blockingEntry(['meta_ads_pause_ad_set'], snapshot[1], snapshot)).not.toBeNull()
  })

  it('an entry that names no resource is its own resource: blocked under its own names only', () => {
    expect(blockTargetOf(snapshot[2])).toEqual({ operation: 'enable', resource: 'launch_thing' })
    expect(blockingEntry(['launch'], snapshot[2], snapshot)).not.toBeNull()
    expect(blockingEntry(['launch'], snapshot[3], snapshot)).toBeNull()
  })

  it('decideWrite blocks through the catalog the write names', () => {
    const policy = { ...defaultPolicy(), block_tools: ['pause_adset'] }
    const decision = decideWrite(policy, { script: 'pause_ad_set_v2', operation: 'pause', resource: 'ad_set', catalog: snapshot }, NOON)
    expect(decision).toMatchObject({ action: 'block', rule: 'block.tool', explanation: { list: { matched: 'pause_adset', blocks: { operation: 'pause', resource: 'ad_set' } } } })
    expect(decision.reason).toContain('The policy blocks the tool pause_ad_set_v2 (block_tools names pause_adset: the same pause on ad_set).')
    // The built-in catalog knows no such name, so there it blocks nothing.
    expect(decideWrite(policy, { script: 'pause_ad_set_v2', operation: 'pause', resource: 'ad_set' }, NOON).action).toBe('run')
  })
})
