import { describe, expect, it } from 'vitest'
import { keyOf, parseArgs, prepareCall } from './args.js'
import { findEntry } from './catalog.js'
import type { SandboxError } from './errors.js'

const entry = (name: string) => findEntry(name)!

function refusal(fn: () => unknown): SandboxError {
  try {
    fn()
  } catch (error) {
    return error as SandboxError
  }
  throw new Error('expected a refusal')
}

describe('parseArgs', () => {
  it.each([
    ['space-separated values, in order', ['--campaign-id', '12', '--daily-budget', '50'], { campaign_id: '12', daily_budget: 50 }],
    ['--flag=value', ['--campaign-id=12', '--daily-budget=50.25'], { campaign_id: '12', daily_budget: 50.25 }],
    ['flags in any order', ['--daily-budget', '1', '--campaign-id', 'x'], { campaign_id: 'x', daily_budget: 1 }],
  ])('reads %s', (_name, args, expected) => {
    expect(parseArgs(entry('update_campaign_budget'), args)).toEqual(expected)
  })

  it('collects repeatable flags, splits lists and normalises choices', () => {
    expect(parseArgs(entry('google_ads_add_keywords'), ['--ad-group-id', '1', '--keyword', 'a b', '--keyword', 'c', '--match-type', 'phrase']))
      .toEqual({ ad_group_id: '1', keyword: ['a b', 'c'], match_type: 'PHRASE' })
    expect(parseArgs(entry('google_ads_add_negative_keywords'), ['--campaign-id', '1', '--keywords', ' free, cheap ,,x ']))
      .toEqual({ campaign_id: '1', keywords: ['free', 'cheap', 'x'] })
  })

  it('reports every unknown flag and stray value at once, before checking values', () => {
    const error = refusal(() => parseArgs(entry('update_campaign_budget'), ['--budget', 'x', 'stray', '--campaign-id', '--foo']))
    expect(error.code).toBe('UNRECOGNIZED_ARGS')
    expect(error.details.flags).toEqual(['--budget', 'stray', '--foo'])
  })

  it.each([
    [['--campaign-id', '--daily-budget', '5'], '--campaign-id', /needs a value/],
    [['--campaign-id', '1', '--daily-budget', '-5'], '--daily-budget', /at least 1/],
    [['--campaign-id', '1', '--daily-budget', '1e3'], '--daily-budget', /must be a number/],
    [['--campaign-id', '1'], '--daily-budget', /required/],
  ])('refuses %j as INVALID_ARGS naming %s', (args, flag, message) => {
    const error = refusal(() => parseArgs(entry('update_campaign_budget'), args))
    expect(error.code).toBe('INVALID_ARGS')
    expect(error.details.flag).toBe(flag)
    expect(error.message).toMatch(message)
  })

  it('turns flag names into snake_case keys', () => {
    expect(keyOf('--hashed-emails-artifact-id')).toBe('hashed_emails_artifact_id')
  })
})

describe('prepareCall', () => {
  it('resolves an alias to its canonical script and keeps the args exactly as sent', () => {
    const call = prepareCall({ script_name: 'pull_google_ads_data', args: ['--days', '7'] })
    expect(call.entry.name).toBe('pull_google_ads')
    expect(call.args).toEqual(['--days', '7'])
    expect(call.platform).toBe('google')
  })

  it.each([
    [{ script_name: 'list_campaigns', args: [], platform: '  GOOGLE ' }, 'google'],
    [{ script_name: 'list_campaigns', args: ['--platform', 'Google'] }, 'google'],
    [{ script_name: 'list_campaigns', args: ['--platform', 'google'], platform: 'GOOGLE' }, 'google'],
  ])('normalises the platform of %j', (input, platform) => {
    expect(prepareCall(input).platform).toBe(platform)
  })

  it.each([
    [{ script_name: 'list_campaigns', args: [] }],
    [{ script_name: 'list_campaigns', args: [], platform: 'meta' }],
    [{ script_name: 'list_campaigns', args: ['--platform', 'google'], platform: 'meta' }],
    [{ script_name: 'pull_google_ads', args: [], platform: 'linkedin' }],
  ])('refuses %j with UNSUPPORTED_PLATFORM', (input) => {
    expect(refusal(() => prepareCall(input)).code).toBe('UNSUPPORTED_PLATFORM')
  })
})
