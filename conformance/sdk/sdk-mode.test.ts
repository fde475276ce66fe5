import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RunResult } from '../runner.js'
import { runScenarios } from '../runner.js'
import { makeTarget } from '../targets.js'
import { firstFailure } from '../reporters/format.js'
import { htmlReport } from '../reporters/html.js'
import { Secrets } from '../secrets.js'
import { SdkAdapter } from './adapter-process.js'
import { withSdk } from './sdk-target.js'

const REFERENCE = 'node --import tsx conformance/adapters/reference.ts'
const EMULATED_011 = `${REFERENCE} --emulate 0.1.1`

async function runSdk(command: string, options: { baseline?: string | null; grep?: string } = {}): Promise<RunResult> {
  const adapter = await SdkAdapter.start(command)
  try {
    return await runScenarios({
      paths: ['scenarios/sdk'], tags: ['sdk', '~slow'], grep: options.grep, contract: 'off',
      baseline: options.baseline === undefined ? 'conformance/baseline.yaml' : options.baseline,
      target: withSdk(makeTarget(), adapter),
    })
  } finally {
    await adapter.close()
  }
}

const failedIds = (run: RunResult) => run.scenarios.filter((r) => r.outcome === 'failed').map((r) => r.id).sort()
const sdkRules = (run: RunResult, ids: string[]) => [...new Set(run.scenarios.filter((r) => ids.includes(r.id)).flatMap((r) => r.covers).filter((c) => c.startsWith('SDK-')))].sort()

describe('SDK mode with the reference adapter', () => {
  let run: RunResult
  beforeAll(async () => {
    run = await runSdk(REFERENCE)
  }, 120_000)

  it('passes every sdk scenario (slow ones left out), none skipped, and names the SDK', () => {
    const problems = run.scenarios.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${firstFailure(r.steps)?.label ?? ''} ${r.reason}`)
    expect(problems, problems.join('\n')).toEqual([])
    expect(run.summary.passed).toBeGreaterThanOrEqual(12)
    expect(run.scenarios.some((r) => r.tags.includes('slow'))).toBe(false)
    expect(run.sdk).toBe('adops-reference@0.2.0')
    expect(run.exitCode).toBe(0)
  })

  it('covers every SDK rule', () => {
    const covered = run.coverage.rules.filter((r) => r.id.startsWith('SDK-') && r.scenarios.some((s) => s.outcome === 'passed')).map((r) => r.id)
    expect(covered).toEqual(['SDK-01', 'SDK-02', 'SDK-03', 'SDK-04', 'SDK-05', 'SDK-06', 'SDK-07', 'SDK-08', 'SDK-09'])
  })
})

describe('SDK mode with the SDK 0.1.1 emulation', () => {
  let run: RunResult
  beforeAll(async () => {
    run = await runSdk(EMULATED_011)
  }, 120_000)

  it('fails exactly the scenarios of its documented defects: SDK-07 (alias) and SDK-08 (--budget, always google)', () => {
    expect(failedIds(run)).toEqual(['sdk.budget-helper', 'sdk.canonical-performance-script', 'sdk.helpers-send-platform'])
    expect(sdkRules(run, failedIds(run))).toEqual(['SDK-07', 'SDK-08'])
    expect(run.summary.skipped).toBe(0)
  })

  it('fails them for the right reasons', () => {
    const reason = (id: string) => run.scenarios.find((r) => r.id === id)?.reason ?? ''
    expect(reason('sdk.canonical-performance-script')).toContain('pull_google_ads_data')
    expect(reason('sdk.budget-helper')).toMatch(/expected 200, got 400/)
    expect(reason('sdk.helpers-send-platform')).toMatch(/expected 400, got 200/)
  })

  it('the shipped baseline lists them for adops-reference@0.1.1, so the run passes with 3 expected failures', () => {
    expect(run.sdk).toBe('adops-reference@0.1.1')
    expect(run.summary).toMatchObject({ failed: 0, expected_failures: 3, stale: 0 })
    expect(run.exitCode).toBe(0)
  })

  it('shows the SDK × rule matrix in the HTML report: xfail for SDK-07 and SDK-08, ✓ elsewhere', () => {
    const html = htmlReport(run, new Secrets())
    expect(html).toContain('SDK × rule matrix')
    expect(html).toContain('<th>adops-reference@0.1.1</th>')
    const cell = (id: string) => new RegExp(`<strong>${id}</strong></td><td>[^<]*</td><td class="cell ([a-z]+)"`).exec(html)?.[1]
    expect(['SDK-07', 'SDK-08'].map(cell)).toEqual(['expected', 'expected'])
    expect(['SDK-01', 'SDK-02', 'SDK-03', 'SDK-04', 'SDK-05', 'SDK-06', 'SDK-09'].map(cell)).toEqual(Array(7).fill('passed'))
  })
})

describe('baseline entries per SDK version', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sdk-baseline-'))
  })
  it('an entry naming the SDK without a version turns stale once a release passes', async () => {
    const file = join(dir, 'baseline.yaml')
    await writeFile(file, 'known_failures:\n  - { scenario: sdk.budget-helper, sdk: adops-reference, reason: "0.1.1 sends --budget" }\n')
    const run = await runSdk(REFERENCE, { baseline: file, grep: 'budget-helper' })
    expect(run.scenarios.map((r) => [r.id, r.outcome, r.baseline?.stale])).toEqual([['sdk.budget-helper', 'passed', true]])
    expect(run.summary.stale).toBe(1)
    expect(run.exitCode).toBe(1)
  }, 60_000)

  it('an entry for another version does not apply', async () => {
    const file = join(dir, 'other.yaml')
    await writeFile(file, 'known_failures:\n  - { scenario: sdk.budget-helper, sdk: adops-reference@0.1.0, reason: old }\n')
    const run = await runSdk(EMULATED_011, { baseline: file, grep: 'budget-helper' })
    expect(run.summary).toMatchObject({ failed: 1, expected_failures: 0 })
  }, 60_000)
})
