import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../src/create-sandbox.js'
import { createSandbox } from '../src/create-sandbox.js'
import type { DriftResult } from './drift.js'
import { runDrift } from './drift.js'
import type { Plant } from './drift-proxy.js'
import { startDriftProxy } from './drift-proxy.js'
import { renderDrift } from './reporters/drift-text.js'

/**
 * Issue 19 item 5: the drift check against a sandbox behind a proxy that plants divergences. Every
 * planted one is reported, with the step and the side at fault; an untouched proxy reports none.
 */

let sb: RunningSandbox
beforeAll(async () => {
  sb = await createSandbox()
})
afterAll(async () => {
  await sb?.close()
})

async function driftThrough(plant?: Plant): Promise<DriftResult> {
  const base = await startDriftProxy(sb.baseUrl, plant)
  const api = await startDriftProxy(sb.apiUrl, plant)
  try {
    return await runDrift({ target: { kind: 'real', baseUrl: base.url, apiUrl: api.url, keys: sb.keys }, jobs: 2 })
  } finally {
    await base.close()
    await api.close()
  }
}

/**
 * Renames `campaign_name` to `name` in every campaign, says FORBIDDEN for SCOPE_MISSING, drops
 * `Allow`, and answers a missing key with 400 instead of 401.
 */
const planted: Plant = (answer) => {
  const json = answer.json as { campaigns?: Array<Record<string, unknown>>; code?: string } | null
  for (const c of json?.campaigns ?? []) {
    c.name = c.campaign_name
    delete c.campaign_name
  }
  if (json?.code === 'SCOPE_MISSING') json.code = 'FORBIDDEN'
  delete answer.headers.allow
  if (json?.code === 'AUTHENTICATION_REQUIRED') answer.status = 400
}

describe('conform --drift against a deployment', { timeout: 120_000 }, () => {
  it('reports no drift against an identical target, and says what it compared', async () => {
    const result = await driftThrough()
    expect(result.comparison.findings).toEqual([])
    expect(result.comparison.compared).toBeGreaterThan(50)
    expect(result.exitCode).toBe(0)
    expect(renderDrift(result)).toContain('drift: none')
  })

  it('reports a renamed field, a different error code and a missing header, each at its step', async () => {
    const result = await driftThrough(planted)
    const found = result.comparison.findings
    const pick = (aspect: string, where: string) => found.filter((f) => f.aspect === aspect && f.where === where)
    expect(pick('field-missing', '$.campaigns[].campaign_name').length).toBeGreaterThan(0)
    expect(pick('field-extra', '$.campaigns[].name').length).toBeGreaterThan(0)
    const codes = pick('code', 'code')
    expect(codes.length).toBeGreaterThan(0)
    expect(codes.every((f) => f.sandbox === 'SCOPE_MISSING' && f.target === 'FORBIDDEN')).toBe(true)
    // The spec names the 403, not its code: the scenarios pass on both sides, so the code is a sandbox decision.
    expect(codes.every((f) => f.kind === 'decision-differs')).toBe(true)
    // The spec does name the 401: a 400 there fails the target's run, so the target is out of line.
    const statuses = found.filter((f) => f.aspect === 'status')
    expect(statuses.length).toBeGreaterThan(0)
    expect(statuses.every((f) => f.sandbox === 401 && f.target === 400 && f.kind === 'target-violates-spec')).toBe(true)
    expect(pick('header', 'allow')).toEqual([expect.objectContaining({ sandbox: 'present', target: 'absent', request: expect.stringMatching(/^\w+ \//) })])
    expect(new Set(found.map((f) => f.aspect))).toEqual(new Set(['field-missing', 'field-extra', 'code', 'header', 'status']))
    expect(result.exitCode).toBe(1)
    expect(renderDrift(result)).toMatch(/target violates the spec[^\n]*: \d+/)
  })
})
