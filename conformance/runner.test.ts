import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../src/create-sandbox.js'
import type { RunningSandbox } from '../src/create-sandbox.js'
import { runScenarios } from './runner.js'
import { mergeReports } from './merge.js'
import { fileReporter } from './reporters/files.js'

const FX = 'conformance/test-fixtures'
const quiet = { baseline: null } as const

describe('runScenarios', { timeout: 90_000 }, () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await createSandbox()
  })
  afterAll(() => sandbox.close())

  it('against a real deployment skips what needs the control plane, with the reason, and fails nothing', async () => {
    const run = await runScenarios({ ...quiet, paths: [`${FX}/pass`], target: { kind: 'real', baseUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl, keys: { owner: sandbox.keys.owner } } })
    const byId = Object.fromEntries(run.scenarios.map((r) => [r.id, r]))
    expect(byId['fx.pass'].outcome).toBe('passed')
    expect(byId['fx.sandbox'].outcome).toBe('skipped')
    expect(byId['fx.sandbox'].reason).toMatch(/lacks capability control, clock/)
    expect(byId['fx.sandbox'].steps.map((s) => s.outcome)).toEqual(['passed', 'skipped', 'skipped'])
    expect(run.summary).toMatchObject({ passed: 1, failed: 0, skipped: 1 })
    expect(run.exitCode).toBe(0)
  })

  it('against a running sandbox (--target URL) resets the world per scenario and learns the api host', async () => {
    const run = await runScenarios({ ...quiet, paths: [`${FX}/pass`], target: { kind: 'url', baseUrl: sandbox.baseUrl, adminToken: sandbox.adminToken! } })
    expect(run.scenarios.map((r) => r.outcome)).toEqual(['passed', 'passed'])
  })

  it('treats a listed failure as expected and a listed pass as stale', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conform-'))
    const baseline = join(dir, 'baseline.yaml')
    await writeFile(baseline, 'known_failures:\n  - { scenario: fx.fail, reason: not landed yet }\n')
    const expected = await runScenarios({ paths: [`${FX}/fail`, `${FX}/pass/A-01-pass.yaml`], baseline })
    expect(expected.summary).toMatchObject({ passed: 1, failed: 0, expected_failures: 1, stale: 0 })
    expect(expected.exitCode).toBe(0)
    await writeFile(baseline, 'known_failures:\n  - { scenario: fx.pass, reason: was broken }\n')
    const stale = await runScenarios({ paths: [`${FX}/pass/A-01-pass.yaml`], baseline })
    expect(stale.summary).toMatchObject({ passed: 0, stale: 1 })
    expect(stale.exitCode).toBe(1)
  })

  it('fails the coverage gate with exit 4 only when nothing else failed', async () => {
    expect((await runScenarios({ ...quiet, paths: [`${FX}/pass`], coverage: true })).exitCode).toBe(4)
    expect((await runScenarios({ ...quiet, paths: [FX], coverage: true })).exitCode).toBe(1)
  })

  it('selects by tag, rule and text, and splits shards that merge back into the whole run', async () => {
    const ids = async (o: object) => (await runScenarios({ ...quiet, paths: [FX], ...o })).scenarios.map((r) => r.id)
    expect(await ids({ tags: ['sandbox'] })).toEqual(['fx.sandbox'])
    expect(await ids({ tags: ['~sandbox'] })).toEqual(['fx.fail', 'fx.pass'])
    expect(await ids({ covers: ['AUTH'] })).toEqual(['fx.fail'])
    expect(await ids({ grep: 'secret' })).toEqual(['fx.pass'])
    const dir = await mkdtemp(join(tmpdir(), 'conform-'))
    const shards = [1, 2].map((i) => join(dir, `shard-${i}.json`))
    const runs = await Promise.all(shards.map((file, i) => runScenarios({ ...quiet, paths: [FX], shard: `${i + 1}/2`, reporters: [fileReporter(`json:${file}`)] })))
    expect(runs.flatMap((r) => r.scenarios.map((s) => s.id)).sort()).toEqual(['fx.fail', 'fx.pass', 'fx.sandbox'])
    const merged = await mergeReports(shards)
    expect(merged.summary).toMatchObject({ passed: 2, failed: 1 })
    expect(merged.coverage.rules.find((r) => r.id === 'KEY-09')?.scenarios).toEqual([{ id: 'fx.sandbox', outcome: 'passed' }])
  })

  it('skips a teardown step whose capture never happened, and keeps the first failure as the reason', async () => {
    const run = await runScenarios({ ...quiet, paths: [`${FX}/_more/T-01-teardown.yaml`] })
    const [result] = run.scenarios
    expect(result.outcome).toBe('failed')
    expect(result.reason).toMatch(/^child: request POST \/api\/v1\/keys: status: expected 201, got 403/)
    expect(result.steps.map((s) => s.outcome)).toEqual(['failed', 'skipped'])
    expect(result.steps[1].reason).toMatch(/child\.key_id/)
  })

  it('retries a step until its expectation holds, and reports the attempts', async () => {
    const run = await runScenarios({ ...quiet, paths: [`${FX}/_more/R-01-retry.yaml`] })
    const [, retried, , exhausted] = run.scenarios[0].steps
    expect(retried).toMatchObject({ outcome: 'passed', attempts: 3 })
    expect(exhausted).toMatchObject({ outcome: 'failed', attempts: 3 })
    expect(exhausted.reason).toMatch(/status: expected 200, got 429/)
  })

  it('switches worlds mid-scenario; the keys of the new world become the credentials', async () => {
    const run = await runScenarios({ ...quiet, paths: [`${FX}/_more/W-01-world.yaml`] })
    // The last step sends the old world's owner key by value: the new world refuses it.
    expect(run.scenarios[0].steps.map((s) => s.outcome)).toEqual(['passed', 'passed', 'passed', 'passed'])
  })

  it('runs serial scenarios alone, after the parallel ones', async () => {
    const order: string[] = []
    await runScenarios({
      ...quiet,
      jobs: 4,
      paths: [`${FX}/_more/S-01-serial.yaml`, `${FX}/_more/S-02-serial.yaml`, `${FX}/pass`],
      onEvent: (e) => {
        if (e.type === 'scenario-start') order.push(`start ${e.id}`)
        if (e.type === 'scenario-end') order.push(`end ${e.result.id}`)
      },
    })
    const serial = order.filter((e) => e.includes('serial'))
    expect(serial).toEqual(['start fx.serial-1', 'end fx.serial-1', 'start fx.serial-2', 'end fx.serial-2'])
    expect(order.indexOf('start fx.serial-1')).toBeGreaterThan(order.indexOf('end fx.pass'))
  })

  it('writes json, ndjson, junit and html reports with secrets redacted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conform-'))
    const files = { json: 'r.json', ndjson: 'e.ndjson', junit: 'j.xml', html: 'r.html' }
    const run = await runScenarios({ ...quiet, paths: [FX], reporters: Object.entries(files).map(([k, f]) => fileReporter(`${k}:${join(dir, f)}`)) })
    const secret = run.scenarios.find((r) => r.id === 'fx.pass')!.steps[0].exchange!.response.body as { key: string }
    const texts: Record<string, string> = Object.fromEntries(await Promise.all(Object.entries(files).map(async ([k, f]) => [k, await readFile(join(dir, f), 'utf8')] as const)))
    for (const [kind, text] of Object.entries(texts)) {
      expect(text.includes(secret.key), `${kind} leaks the secret`).toBe(false)
      expect(text, kind).toContain('«secret:key»')
    }
    expect(texts.junit).toMatch(/<testcase classname="conformance\.test-fixtures\.fail" name="fx\.fail: [^"]+"/)
    expect(texts.junit).toContain('<property name="covers" value="AUTH-03"/>')
    expect(texts.junit).toMatch(/<failure message="[^"]*status: expected 200, got 401/)
    expect(texts.junit).toContain('<system-out>')
    expect(texts.html).toContain('Rule coverage')
    expect(texts.html).toMatch(/<strong>KEY-01<\/strong>/)
    expect(texts.html.trim().endsWith('</html>')).toBe(true)
    expect(texts.ndjson.trim().split('\n').map((l: string) => (JSON.parse(l) as { type: string }).type)).toContain('scenario-end')
    expect(JSON.parse(texts.json).summary).toMatchObject({ passed: 2, failed: 1 })
  })
})
